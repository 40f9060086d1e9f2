# Runs a command and writes "<wall ms> <cpu ms>" of that child alone to a file: wall time
# from fork to exit, CPU time as user + system of every thread it ran (wait4's rusage).
# Python's own start-up is outside both. Used by scripts/bench/ab.mjs.
#   python3 scripts/bench/rusage.py <out-file> <command> [args...]
import os
import sys
import time

out, argv = sys.argv[1], sys.argv[2:]
start = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(argv[0], argv)
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = (time.perf_counter() - start) * 1000
with open(out, "w") as f:
    f.write(f"{wall:.3f} {(ru.ru_utime + ru.ru_stime) * 1000:.3f}\n")
sys.exit(os.waitstatus_to_exitcode(status) if hasattr(os, "waitstatus_to_exitcode") else status >> 8)
