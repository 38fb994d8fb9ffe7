"""A real SMTP server on loopback for the mail delivery tests (aiosmtpd): accepts every message
and writes it, parsed, as one JSON file per delivery into the directory it is given. Recipients
choose the server's behaviour, so a test can stage the outside world's failures:
  tempfail-N-…@…  answered 451 at RCPT for the first N tries of that address, then accepted;
  reject…@…       answered 550 at RCPT (no such mailbox), every time.
Given a certificate and key (tests/support/tls), the server also offers STARTTLS on that port and
listens with implicit TLS on a second one.
Prints "PORT <n>" (and "TLS_PORT <n>") once listening; exits when its stdin closes (the test
process is gone).
"""
import asyncio
import email
import email.policy
import json
import os
import re
import ssl
import sys
import threading

from aiosmtpd.smtp import SMTP

TEMPFAIL = re.compile(r"^tempfail-(\d+)-", re.IGNORECASE)


class Handler:
    def __init__(self, out_dir):
        self.out_dir = out_dir
        self.tries = {}
        self.seq = 0

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        local = address.split("@", 1)[0].lower()
        if local.startswith("reject"):
            return "550 5.1.1 No such mailbox here"
        m = TEMPFAIL.match(local)
        if m:
            seen = self.tries.get(address, 0) + 1
            self.tries[address] = seen
            if seen <= int(m.group(1)):
                return "451 4.3.0 Mailbox busy, try again later"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        raw = envelope.original_content or envelope.content
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        text = msg.get_body(("plain",))
        html = msg.get_body(("html",))
        record = {
            "tls": session.ssl is not None
            or server.transport.get_extra_info("ssl_object") is not None,
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "headers": [[k, str(v)] for k, v in msg.items()],
            "text": text.get_content() if text is not None else None,
            "html": html.get_content() if html is not None else None,
            "content_type": msg.get_content_type(),
            "raw": raw.decode("utf-8", "replace"),
        }
        self.seq += 1
        name = f"{self.seq:06d}-{os.getpid()}"
        tmp = os.path.join(self.out_dir, name + ".tmp")
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(record, f)
        os.rename(tmp, os.path.join(self.out_dir, name + ".json"))
        return "250 Message accepted for delivery"


def exit_when_stdin_closes():
    sys.stdin.read()
    os._exit(0)


async def main(out_dir, cert=None, key=None):
    handler = Handler(out_dir)
    loop = asyncio.get_running_loop()
    context = None
    if cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(cert, key)

    def smtp():
        return SMTP(handler, hostname="smtp.test", data_size_limit=10_000_000, tls_context=context)

    server = await loop.create_server(smtp, host="127.0.0.1", port=0)
    print(f"PORT {server.sockets[0].getsockname()[1]}", flush=True)
    servers = [server]
    if context is not None:
        implicit = await loop.create_server(
            lambda: SMTP(handler, hostname="smtp.test", data_size_limit=10_000_000),
            host="127.0.0.1",
            port=0,
            ssl=context,
        )
        print(f"TLS_PORT {implicit.sockets[0].getsockname()[1]}", flush=True)
        servers.append(implicit)
    threading.Thread(target=exit_when_stdin_closes, daemon=True).start()
    await asyncio.gather(*(s.serve_forever() for s in servers))


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
