"""The redirect listener: loopback only, state checked, static answer, timeout, closed afterwards."""

from __future__ import annotations

import asyncio
import socket

import httpx2
import pytest

from inspector.auth.errors import AuthCancelled, AuthDenied, AuthTimedOut
from inspector.auth.events import AuthLog
from inspector.auth.loopback import LoopbackListener


async def _get(url: str) -> httpx2.Response:
    async with httpx2.AsyncClient(timeout=5) as client:
        return await client.get(url)


def _refused(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) != 0


def test_wrong_state_is_rejected_and_the_right_one_accepted() -> None:
    log = AuthLog()

    async def run() -> tuple:
        async with LoopbackListener(timeout=10, log=log) as listener:
            assert listener.redirect_uri.startswith("http://127.0.0.1:") and listener.port
            listener.expect("https://as.example/authorize?state=expected-state&client_id=x")
            waiter = asyncio.ensure_future(listener.wait())
            forged = await _get(f"{listener.redirect_uri}?code=evil&state=forged")
            missing = await _get(f"{listener.redirect_uri}?code=evil")
            other_path = await _get(f"http://127.0.0.1:{listener.port}/favicon.ico")
            assert not waiter.done()
            good = await _get(f"{listener.redirect_uri}?code=the-code&state=expected-state&iss=https%3A%2F%2Fas")
            result = await waiter
            port = listener.port
        return forged, missing, other_path, good, result, port

    forged, missing, other_path, good, result, port = asyncio.run(run())
    assert forged.status_code == 400 and "state mismatch" in forged.text
    assert missing.status_code == 400
    assert other_path.status_code == 404
    assert good.status_code == 200 and "close this tab" in good.text
    assert "evil" not in forged.text  # nothing from the request is echoed back
    assert (result.code, result.state, result.iss) == ("the-code", "expected-state", "https://as")
    assert [e.ok for e in log.events if e.step == "authorize"].count(False) == 2
    assert _refused(port)  # closed after the flow


def test_an_error_redirect_fails_the_flow_with_the_reason() -> None:
    async def run() -> None:
        async with LoopbackListener(timeout=10) as listener:
            listener.expect("https://as.example/authorize?state=s1")
            waiter = asyncio.ensure_future(listener.wait())
            page = await _get(f"{listener.redirect_uri}?error=access_denied&error_description=user+said+no&state=s1")
            assert page.status_code == 200 and "user said no" not in page.text
            await waiter

    with pytest.raises(AuthDenied, match="access_denied: user said no"):
        asyncio.run(run())


def test_timeout_and_cancel() -> None:
    async def timeout() -> int:
        async with LoopbackListener(timeout=0.3) as listener:
            listener.expect("https://as.example/authorize?state=s")
            port = listener.port
            with pytest.raises(AuthTimedOut):
                await listener.wait()
        return port

    assert _refused(asyncio.run(timeout()))

    async def cancel() -> None:
        async with LoopbackListener(timeout=10) as listener:
            waiter = asyncio.ensure_future(listener.wait())
            await asyncio.sleep(0)
            listener.cancel()
            await waiter

    with pytest.raises(AuthCancelled):
        asyncio.run(cancel())
