"""Who may connect to the Dask cluster that grades a class: those holding its certificate, no one else.

A Dask scheduler runs whatever its clients send, on itself and on its workers,
as the user who started them. Reached over plain ``tcp://``, anyone who can
reach its port (another user of this machine, who finds it in /proc/net/tcp)
can patch the grading. So ``attn-grade grade --cluster`` speaks TLS with
mutual certificates, as Dask itself provides (``distributed.security.Security``):

* ``local:N``: a throwaway certificate made for this run (``Security.temporary``)
  that only this process and the workers it starts hold, in memory; the
  scheduler and workers listen on 127.0.0.1 with ``tls://`` and refuse a peer
  that cannot show it;
* ``tls://HOST:PORT``: the certificate files the instructor made (docs/instructors/cluster.md), from ``--tls-ca-file``, ``--tls-cert`` and
  ``--tls-key`` or else from Dask's own configuration
  (``distributed.comm.tls.*``); a key another user could read is refused;
* ``tcp://HOST:PORT``: refused unless ``--insecure-cluster``; then every
  results.json and the summary say so (``INSECURE``).
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

INSECURE = ("graded on a Dask cluster reached over plain tcp:// (--insecure-cluster): neither encrypted nor "
            "authenticated, so anyone who could reach its scheduler could have changed this grade")


class UnsafeCluster(ValueError):
    """The cluster cannot be reached safely as asked: a missing certificate, a key others may read, plain tcp."""


def scheme(address: str) -> str:
    """'local', 'tls', 'tcp', ... of a --cluster address."""
    return "local" if address.startswith("local:") else address.split("://", 1)[0]


def refusal(address: str, tls: tuple = (), insecure: bool = False) -> str:
    """Why ``attn-grade grade`` must not grade on ``address`` as asked, or "" (checked before anybody is graded)."""
    kind = scheme(address)
    if tls and kind != "tls":
        return f"--tls-ca-file, --tls-cert and --tls-key are for a tls:// scheduler, not {address}"
    if kind == "local":
        return ""
    if kind == "tls":
        try:
            files_of(tls)
        except UnsafeCluster as exc:
            return str(exc)
        return ""
    if kind == "tcp" and insecure:
        return ""
    if kind == "tcp":
        return (f"--cluster {address}: a tcp:// scheduler is neither encrypted nor authenticated, so anyone who "
                f"can reach its port can run code as you and change grades; start it with TLS and give "
                f"tls://HOST:PORT with --tls-ca-file, --tls-cert and --tls-key (docs/instructors/cluster.md), "
                f"or pass --insecure-cluster if nobody else can reach that network")
    return f"--cluster {address}: give local:N or tls://HOST:PORT ({kind}:// is not supported)"


def files_of(tls: tuple) -> tuple:
    """(ca, cert, key) for a tls:// scheduler: the options given, else Dask's configuration; checked."""
    import dask

    ca, cert, key = tls or (dask.config.get("distributed.comm.tls.ca-file", None),
                            dask.config.get("distributed.comm.tls.client.cert", None),
                            dask.config.get("distributed.comm.tls.client.key", None))
    if not (ca and cert):
        raise UnsafeCluster("a tls:// scheduler needs its certificate: give --tls-ca-file, --tls-cert and --tls-key "
                      "(docs/instructors/cluster.md), or set them in Dask's configuration "
                      "(distributed.comm.tls.ca-file, .client.cert, .client.key)")
    for option, path in (("--tls-ca-file", ca), ("--tls-cert", cert), ("--tls-key", key)):
        if path and not Path(path).is_file():
            raise UnsafeCluster(f"{option} {path}: no such file")
    secret = key or cert  # the key may sit in the certificate's file
    mode = os.stat(secret).st_mode
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise UnsafeCluster(f"the private key {secret} may be read by other users of this machine (mode "
                      f"{stat.S_IMODE(mode):04o}), who could then join the cluster: chmod 600 {secret}")
    return ca, cert, key


def security(address: str, tls: tuple = ()):
    """The ``distributed.security.Security`` a client (and, for local:N, the cluster) uses, or None for tcp://."""
    from distributed.security import Security

    kind = scheme(address)
    if kind == "local":
        try:
            return Security.temporary()  # require_encryption=True; the same throwaway pair for every role
        except ImportError:
            raise UnsafeCluster("--cluster local:N makes a throwaway certificate, which needs the package "
                          "'cryptography': pip install 'attn-exercises[cluster]'") from None
    if kind == "tls":
        ca, cert, key = files_of(tls)
        return Security(require_encryption=True, tls_ca_file=ca, tls_client_cert=cert, tls_client_key=key)
    return None
