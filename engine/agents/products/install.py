"""``scopewatch agents install NAME``: a product's pinned version, from the npm registry, into the
agents cache (``npm install --prefix CACHE/NAME/VERSION PACKAGE@VERSION``). Installed once; a
second install finds it and does nothing."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from channel.errors import ScopewatchError
from engine.agents.products.base import Product

INSTALL_TIMEOUT = 600.0
SYSTEM_CA_BUNDLES = ("/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem")
"""Where Debian, Fedora and Alpine keep the system's certificates (Node.js trusts only its own unless told)."""


def npm_env(environ: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment npm runs in: this one, and where it names no extra certificates, the system's bundle as
    ``NODE_EXTRA_CA_CERTS`` (added to Node's own), so a registry reached through a proxy the system trusts is
    trusted by npm too (on a fresh shell npm otherwise fails with ``SELF_SIGNED_CERT_IN_CHAIN``)."""
    env = dict(os.environ if environ is None else environ)
    if not env.get("NODE_EXTRA_CA_CERTS"):
        bundle = next((b for b in SYSTEM_CA_BUNDLES if Path(b).is_file()), None)
        if bundle is not None:
            env["NODE_EXTRA_CA_CERTS"] = bundle
    return env


class InstallFailed(ScopewatchError):
    """npm is missing, or it could not install the package."""


@dataclass(frozen=True)
class Installed:
    product: str
    version: str
    path: str
    seconds: float
    fresh: bool
    """False: it was in the cache already."""


async def install(product: Product) -> Installed:
    """Install ``product`` into the cache unless it is there; raise :class:`InstallFailed` with npm's
    last line when it cannot."""
    start = time.monotonic()
    if product.installed():
        return Installed(product.name, product.version, str(product.executable), 0.0, fresh=False)
    npm = shutil.which("npm")
    if npm is None:
        raise InstallFailed(f"{product.name}: npm is not on PATH (install Node.js 18+ and npm)")
    target = product.install_dir
    target.mkdir(parents=True, exist_ok=True)
    proc = await asyncio.create_subprocess_exec(
        npm, "install", "--prefix", str(target), "--no-audit", "--no-fund", "--loglevel=error",
        f"{product.package}@{product.version}",
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT, stdin=asyncio.subprocess.DEVNULL,
        env=npm_env(),
    )
    try:
        out, _ = await asyncio.wait_for(proc.communicate(), INSTALL_TIMEOUT)
    except TimeoutError:
        proc.kill()
        await proc.wait()
        raise InstallFailed(f"{product.name}: npm install took more than {INSTALL_TIMEOUT:.0f} s") from None
    if proc.returncode != 0 or not product.installed():
        last = (out.decode(errors="replace").strip().splitlines() or ["no output"])[-1]
        raise InstallFailed(f"{product.name}: npm install {product.package}@{product.version} failed: {last}")
    return Installed(product.name, product.version, str(product.executable), time.monotonic() - start, fresh=True)
