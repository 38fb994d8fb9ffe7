"""Runs schemathesis against a running `storefront dev` (SITE_URL): signed out, then signed in as a
customer made for the run (registered and confirmed through the dev mailbox) with a saved address,
a wishlist and a bag, so the account's answers are checked with real data, and as the operator
when API_ADMIN_TOKEN names the server's token. Exits non-zero when either run reports a failure.
Called by scripts/contract."""

import http.cookiejar
import urllib.parse
import json
import os
import re
import subprocess
import sys
import time
import urllib.request
import uuid

SITE = os.environ["SITE_URL"].rstrip("/")
API = f"{SITE}/api"
CONFIG = os.path.join(os.path.dirname(__file__), "..", "api", "contract", "schemathesis.toml")
ST = os.path.join(os.path.dirname(sys.executable), "st")

jar = http.cookiejar.CookieJar()
opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))


def call(method, path, body=None):
    """One API call as the browser makes it (same origin, JSON); returns the decoded answer."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(f"{API}{path}", data=data, method=method)
    req.add_header("Origin", SITE)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with opener.open(req) as res:
        text = res.read().decode()
        return json.loads(text) if text else None


def confirmation_token(email):
    """The token in the newest confirmation email to `email`, from the dev mailbox."""
    deadline = time.time() + 30
    while time.time() < deadline:
        listing = opener.open(f"{SITE}/dev/mail?to={urllib.parse.quote(email)}").read().decode()
        for message in re.findall(r'href="(/dev/mail/[0-9a-f]+)"', listing):
            text = opener.open(f"{SITE}{message}").read().decode()
            token = re.search(r"confirm-account\?token=([0-9a-f]+)", text)
            if token:
                return token.group(1)
        time.sleep(0.5)
    sys.exit(f"no confirmation email to {email} in the dev mailbox")


def sign_in():
    """A confirmed, signed-in customer with an address, a wishlist and a bag; returns the cookies."""
    email = f"contract-{uuid.uuid4().hex[:12]}@example.com"
    call("POST", "/auth/register", {
        "title": "Ms", "first_name": "Ada", "last_name": "Lovelace", "email": email,
        "password": "Contract-check-2026",
    })
    call("POST", "/auth/register/confirm", {"token": confirmation_token(email)})
    call("POST", "/customer/addresses", {
        "first_name": "Ada", "last_name": "Lovelace", "street_name": "Baker Street",
        "house_number": "221B", "city": "London", "postal_code": "NW1 6XE", "country_code": "GB",
        "phone": "+44 20 7946 0000",
    })
    call("POST", "/wishlists", {"name": "Contract", "items": []})
    call("POST", "/cart", {})
    return "; ".join(f"{c.name}={c.value}" for c in jar)


def schemathesis(label, *extra):
    print(f"\n--- schemathesis, {label}", flush=True)
    command = [
        ST, "--config-file", CONFIG, "run", f"{API}/openapi.json", "--url", API,
        "-H", f"Origin: {SITE}", "--no-color", *extra,
    ]
    return subprocess.run(command).returncode


def main():
    failed = schemathesis("signed out")
    cookies = sign_in()
    # Signing out would end the session the rest of the run uses; it ran signed out above.
    operator = os.environ.get("API_ADMIN_TOKEN")
    admin = ["-H", f"Authorization: Bearer {operator}"] if operator else []
    failed |= schemathesis(
        "signed in", "-H", f"Cookie: {cookies}", *admin, "--exclude-path", "/auth/logout"
    )
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
