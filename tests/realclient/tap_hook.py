#!/usr/bin/env python3
"""Tap handler: `tap_hook.py DIR EVENT` saves the genuine hook payload from stdin to
DIR/<time>-<EVENT>-<pid>.json, prints nothing and exits 0 (it never changes what the client does)."""
import os
import sys
import time

folder, event = sys.argv[1], sys.argv[2]
raw = sys.stdin.buffer.read()
os.makedirs(folder, exist_ok=True)
with open(os.path.join(folder, f"{time.time():.6f}-{event}-{os.getpid()}.json"), "wb") as handle:
    handle.write(raw)
