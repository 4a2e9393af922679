"""Progress of long calls: a tqdm bar when tqdm is installed, or a callable of the user's."""


class _TqdmBar:
    """Shows each task of a call as a tqdm bar; the call closes it at the end."""

    def __init__(self, tqdm):
        self._tqdm = tqdm
        self._bar = None
        self._task = None

    def __call__(self, task, done, total):
        if task != self._task:
            self.close()
            self._task = task
            self._bar = self._tqdm(desc=task, total=total or None, leave=False)
        if total and self._bar.total != total:
            self._bar.total = total
        self._bar.update(done - self._bar.n)

    def close(self):
        if self._bar is not None:
            self._bar.close()
            self._bar = None


def reporter(progress):
    """The callback for a call's `progress` argument: "auto" (a tqdm bar when tqdm is
    installed, else none), None or False (none), True (tqdm, which must be installed), or a
    callable taking (task, done, total)."""
    if progress is None or progress is False:
        return None
    if callable(progress):
        return progress
    if progress in ("auto", True):
        try:
            from tqdm.auto import tqdm
        except ImportError:
            if progress is True:
                raise ImportError("progress=True shows a tqdm bar: install tqdm (Debian: python3-tqdm)") from None
            return None
        return _TqdmBar(tqdm)
    raise ValueError(f"progress: expected 'auto', True, False, None or a callable, got {progress!r}")


def finish(callback):
    """Closes a bar reporter() made."""
    if isinstance(callback, _TqdmBar):
        callback.close()
