"""Cisco IOS passwords: type 7's hex (a reversible encoding), type 0's clear text where a
configuration gives it, types 8 and 9's hashes; the words after "password 7" in prose stay."""

from __future__ import annotations

import pytest

from carto_core.privacy.redact import Redactor

REDACTOR = Redactor()


@pytest.mark.parametrize("text, secret", [
    ("username admin password 7 0822455D0A16", "0822455D0A16"),
    ("username netops privilege 15 password 7 02050D480809\n!", "02050D480809"),
    ("line vty 0 4\n password 7 045802150C2E\n login", "045802150C2E"),
    ("enable secret 0 Hunter2xx", "Hunter2xx"),
    ("username bob secret 0 c1sc0Pass", "c1sc0Pass"),
    ("line con 0\n password 0 Cisco123\n login", "Cisco123"),
    ("enable secret 9 $9$nhEmQVczB7dqsO$X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM", "X.HsgL6x1il0RxkOSSvyQYwucySCt7qFm4v7pqCxkKM"),
    ("username a secret 8 $8$dsYGNam3K1SIJO$7nv/35M/qr6t.dVc7UY9zrJDWRVqncHub1PE9UlMQFs", "7nv/35M/qr6t.dVc7UY9zrJDWRVqncHub1PE9UlMQFs"),
    # a tool's output kept as JSON text: its lines start after an escaped break
    ('-> {"output": "hostname edge-rtr2\\nenable secret 0 m#sPFoAF#cg2xb\\n!"}', "m#sPFoAF#cg2xb"),
    ('{"output": "line con 0\\n password 0 Cisco123\\n login"}', "Cisco123"),
    ('{"output": "!\\nusername ops privilege 15 secret 0 c1sc0Pass"}', "c1sc0Pass"),
])
def test_a_cisco_password_is_redacted(text, secret):
    out = REDACTOR.text(text)
    assert secret not in out and "[REDACTED:" in out, out


@pytest.mark.parametrize("text", [
    "set the password 7 times before it locks",
    "the password 7 is used for legacy logins",
    "rotate the secret 7 days before it expires",
    "password 0 of 3 accepted",
    "the password 0 in the list is the default",
    "it asks for the password 7 characters or more",
])
def test_prose_after_password_7_stays(text):
    assert REDACTOR.text(text) == text
