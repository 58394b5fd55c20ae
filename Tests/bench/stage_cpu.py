#!/usr/bin/env python3
"""stage_cpu.py BIN DATA OUT TAG: one build of DATA/site.yml (synth.py's data, e.g.
/work/scratch-scale/data/1000000) at nice 10 (NICE=… to change it); each --verbose line stamped with the process's
user+sys CPU so far (from /proc), RSS sampled every second; at the end the rusage (peak
RSS = ru_maxrss, as /usr/bin/time -v reports it). Writes TAG.stages and TAG.rss
beside DATA. docs/scale.md, "The tenth session"."""
import os, sys, subprocess, threading, time, shutil, resource
binary, data, out, tag = sys.argv[1:5]
data = os.path.abspath(data)
logs = os.path.dirname(data)
shutil.rmtree(out, ignore_errors=True)
tick = os.sysconf("SC_CLK_TCK")
def cpu(pid):
    try:
        f = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
        return (int(f[11]) + int(f[12])) / tick, int(f[11]) / tick, int(f[12]) / tick, int(f[21]) * 4096 // 1024
    except Exception:
        return None
env = dict(os.environ)
p = subprocess.Popen(["stdbuf", "-oL", "-eL", binary, "--config", f"{data}/site.yml",
                      "--output", out, "--verbose"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                     preexec_fn=lambda: os.nice(int(os.environ.get("NICE", "10"))), text=True, bufsize=1)
t0 = time.time()
done = False
rsslog = open(f"{logs}/{tag}.rss", "w")
def sample():
    while not done:
        c = cpu(p.pid)
        if c: rsslog.write(f"{time.time()-t0:.0f} {c[0]:.1f} {c[3]}\n"); rsslog.flush()
        time.sleep(1)
threading.Thread(target=sample, daemon=True).start()
log = open(f"{logs}/{tag}.stages", "w")
log.write(f"start {time.strftime('%H:%M:%S', time.gmtime())} load {os.getloadavg()}\n")
for line in p.stdout:
    c = cpu(p.pid)
    stamp = f"[wall {time.time()-t0:7.1f} s, cpu {c[0]:8.1f} s (user {c[1]:.1f} sys {c[2]:.1f}), rss {c[3]} KiB]" if c else "[gone]"
    log.write(f"{stamp} {line}"); log.flush()
_, status, ru = os.wait4(p.pid, 0)
done = True
log.write(f"end {time.strftime('%H:%M:%S', time.gmtime())} load {os.getloadavg()} status {status}\n")
log.write(f"rusage user {ru.ru_utime:.2f} s sys {ru.ru_stime:.2f} s maxrss {ru.ru_maxrss} KiB wall {time.time()-t0:.1f} s\n")
log.close()
