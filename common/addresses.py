"""The client address of a request or a socket (pure; no Django), by TRUST_X_FORWARDED_FOR's rule
(DRF's throttles pick it alike with NUM_PROXIES): what the login limits (config/login_limits.py)
and the socket limits (common/sockets.py) count by. In common, so that both may import it."""

from __future__ import annotations

import ipaddress


def client_address(remote_addr: str, forwarded_for: str, trusted_proxies: int) -> str:
    """REMOTE_ADDR; with `trusted_proxies` > 0, the address that many entries from the right of
    X-Forwarded-For (the one our nearest proxy saw; entries further left are the client's word),
    as DRF's NUM_PROXIES picks it. An IPv6 address stands for its /64."""
    address = remote_addr
    if trusted_proxies > 0 and forwarded_for:
        entries = [entry.strip() for entry in forwarded_for.split(",") if entry.strip()]
        if entries:
            address = entries[-min(trusted_proxies, len(entries))]
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return address or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)
