"""What every app's API and services share: error types, the API's exception handler, parsers,
throttles, strict serializers and the write-view helpers. The bottom layer: it imports only
Django, DRF and the standard library, never players, games or tournaments."""
