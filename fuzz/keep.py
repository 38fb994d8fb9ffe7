#!/usr/bin/env python3
# Copies a small part of a minimised corpus into regressions/: up to 100 inputs spread over the
# sizes (small ones are cheap, large ones reach deep), within a byte budget.
import os, shutil, sys

src, dst = sys.argv[1], sys.argv[2]
budget = int(sys.argv[3]) if len(sys.argv) > 3 else 100_000
files = sorted((os.path.getsize(os.path.join(src, f)), f) for f in os.listdir(src))
step = max(1, len(files) // 100)
files = sorted(files[::step][:100])
os.makedirs(dst, exist_ok=True)
used = 0
for size, name in files:
    if used + size > budget or size == 0:
        continue
    shutil.copy(os.path.join(src, name), os.path.join(dst, name))
    used += size
print(f"{dst}: {len(os.listdir(dst))} files, {used} bytes")
