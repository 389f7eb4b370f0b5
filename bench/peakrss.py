"""The peak RSS of a benchmark's run, measured by bench/peakrss.c (why
not wait4 from Python: see there).  compile(tmp) once, then
run(wrapper, argv, **popen_args) in place of subprocess.Popen +
os.wait4: (exit status, peak RSS in MiB, CPU seconds, stdout, stderr)."""
import os, subprocess, threading

here = os.path.dirname(os.path.abspath(__file__))

def compile(tmp):
    exe = os.path.join(tmp, "peakrss")
    subprocess.run([os.environ.get("CC") or "cc", "-O2", "-o", exe, os.path.join(here, "peakrss.c")], check=True)
    return exe

def run(wrapper, argv, env=None, stderr=subprocess.PIPE):
    """argv under the wrapper; stdout and stderr (None when stderr is
    subprocess.STDOUT) read to the end without reaping (wait4 does)."""
    rssfile = wrapper + ".%d.out" % threading.get_ident()
    p = subprocess.Popen([wrapper, rssfile] + argv, stdout=subprocess.PIPE, stderr=stderr, env=env)
    errbuf = [b""]
    t = None
    if p.stderr is not None:
        t = threading.Thread(target=lambda: errbuf.__setitem__(0, p.stderr.read()))
        t.start()
    out = p.stdout.read()
    if t is not None:
        t.join()
    _, status, ru = os.wait4(p.pid, 0)
    with open(rssfile) as f:
        kib = int(f.read())
    os.unlink(rssfile)
    err = errbuf[0].decode() if p.stderr is not None else None
    return os.waitstatus_to_exitcode(status), kib / 1024, ru.ru_utime + ru.ru_stime, out.decode(), err
