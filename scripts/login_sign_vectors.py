#!/usr/bin/env python3
"""Vectors of getSignForLogin from an independent implementation (python-ecdsa).

secp256k1 ECDSA over SHA-256 of the message's UTF-8 bytes, deterministic nonce
(RFC 6979 with SHA-256), the 64-byte r || s as lowercase hex, with s in the lower
half of the group order (as k256, libsecp256k1 and Ethereum produce it).

    python3 -m venv /tmp/v && /tmp/v/bin/pip install ecdsa==0.19.2
    /tmp/v/bin/python scripts/login_sign_vectors.py

The output is crates/api/src/login_sign_vectors.json.
"""
import hashlib
import json

from ecdsa import SECP256k1, SigningKey
from ecdsa.util import sigencode_string

N = SECP256k1.order
CASES = [
    ("0000000000000000000000000000000000000000000000000000000000000001", "hello"),
    ("4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318", "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ1c2VyLTEifQ.c2ln"),
    ("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721", "sample"),
    ("c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721", "Satchel ✓ 서명"),
    ("fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364140", ""),
]

out = []
for priv, message in CASES:
    key = SigningKey.from_string(bytes.fromhex(priv), curve=SECP256k1, hashfunc=hashlib.sha256)
    raw = key.sign_deterministic(message.encode("utf-8"), hashfunc=hashlib.sha256, sigencode=sigencode_string)
    r, s = int.from_bytes(raw[:32], "big"), int.from_bytes(raw[32:], "big")
    if s > N // 2:
        s = N - s
    public = key.get_verifying_key().to_string("compressed").hex()
    out.append({"privKey": priv, "publicKey": public, "message": message,
                "sign": r.to_bytes(32, "big").hex() + s.to_bytes(32, "big").hex()})
print(json.dumps(out, indent=2, ensure_ascii=False))
