"""Throttling for write endpoints: rate "writes" per user (or per address when anonymous)."""

from rest_framework.permissions import SAFE_METHODS
from rest_framework.request import Request
from rest_framework.throttling import UserRateThrottle
from rest_framework.views import APIView


class WriteRateThrottle(UserRateThrottle):
    scope = "writes"

    def allow_request(self, request: Request, view: APIView) -> bool:
        if request.method in SAFE_METHODS:
            return True
        return super().allow_request(request, view)
