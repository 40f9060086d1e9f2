# What many researchers write instead of a CLI: the request `pep peptides list -o json`
# makes (GET <base>/peptides?limit=20 with the key) with Python's urllib, its body printed.
# Run by the interpreter itself (sys.executable), not a version manager's shim.
#   python3 scripts/bench/floor-list.py <base-url> <api-key>
import sys
import urllib.request

base, key = sys.argv[1], sys.argv[2]
req = urllib.request.Request(f"{base}/peptides?limit=20", headers={"Accept": "application/json", "Authorization": f"Bearer {key}"})
with urllib.request.urlopen(req) as res:
    sys.stdout.buffer.write(res.read())
