"""The shared API pieces: exception handler, parser, throttle, serializers, view helpers."""
