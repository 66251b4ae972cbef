"""Progress of a sweep: points done, running, failed, and an ETA.

In a terminal: one bar on stderr, redrawn in place. When stderr is not a
terminal (a log file, CI): one line each time a point ends. In a Jupyter
notebook (a Python kernel driving the sweep): an HTML bar updated in place
(IPython display with a display id).
"""
import html
import sys
import time


def _in_notebook():
    try:
        from IPython import get_ipython
    except ImportError:
        return False
    ip = get_ipython()
    return ip is not None and getattr(ip, "kernel", None) is not None


def fmt_seconds(s):
    if s is None:
        return "?"
    s = int(round(s))
    if s < 60:
        return f"{s} s"
    if s < 3600:
        return f"{s // 60} min {s % 60:02d} s"
    return f"{s // 3600} h {(s % 3600) // 60:02d} min"


class Progress:
    """Shows counts of a sweep. total: the points this run executes
    (skipped ones excluded); skipped: points kept from an earlier run."""

    def __init__(self, total, skipped=0, stream=None, mode="auto", width=30):
        self.total, self.skipped, self.width = total, skipped, width
        self.stream = stream or sys.stderr
        if mode == "auto":
            if _in_notebook():
                mode = "notebook"
            elif hasattr(self.stream, "isatty") and self.stream.isatty():
                mode = "tty"
            else:
                mode = "lines"
        self.mode = mode
        self.t0 = time.monotonic()
        self.durations = []
        self.done = self.failed = self.running = 0
        self._last = None
        self._handle = None

    def point_finished(self, seconds, ok):
        if ok:
            self.done += 1
            if seconds is not None:
                self.durations.append(seconds)
        else:
            self.failed += 1

    def eta(self, slots):
        """Seconds left: the mean time of a point done in this run × the
        points left, spread over min(slots, points left) workers' slots."""
        left = self.total - self.done - self.failed
        if left <= 0:
            return 0.0
        if not self.durations:
            return None
        per = sum(self.durations) / len(self.durations)
        return per * left / max(1, min(slots, left))

    def text(self, slots):
        n = max(1, self.total)
        frac = (self.done + self.failed) / n
        fill = int(round(frac * self.width))
        bar = "#" * fill + "." * (self.width - fill)
        skipped = f" ({self.skipped} kept)" if self.skipped else ""
        return (f"[{bar}] {self.done + self.failed}/{self.total}{skipped}: {self.done} done, {self.running} running, "
                f"{self.failed} failed; {fmt_seconds(time.monotonic() - self.t0)} elapsed, "
                f"ETA {fmt_seconds(self.eta(slots))}")

    def show(self, running, slots, final=False):
        self.running = running
        line = self.text(slots)
        if self.mode == "none":
            return
        if self.mode == "notebook":
            self._show_html(slots, final)
            return
        if self.mode == "tty":
            self.stream.write("\r\033[K" + line + ("\n" if final else ""))
            self.stream.flush()
            return
        key = (self.done, self.failed)
        if key != self._last or final:
            self._last = key
            self.stream.write(line + "\n")
            self.stream.flush()

    def _show_html(self, slots, final):
        from IPython.display import HTML, display

        n = max(1, self.total)
        pct = 100 * (self.done + self.failed) / n
        pf = 100 * self.failed / n
        body = (
            '<div style="font-family:monospace">'
            '<div style="width:24em;height:0.9em;background:#ddd;display:inline-block;vertical-align:middle">'
            f'<div style="width:{pct - pf:.1f}%;height:100%;background:#3f51b5;float:left"></div>'
            f'<div style="width:{pf:.1f}%;height:100%;background:#c62828;float:left"></div></div> '
            f"{html.escape(self.text(slots).split('] ', 1)[1])}</div>"
        )
        if self._handle is None:
            self._handle = display(HTML(body), display_id=True)
        else:
            self._handle.update(HTML(body))
