"""pagoda: the Chinese climbing card games Tichu and Dou Di Zhu.

The rules cores are :mod:`pagoda.tichu` and :mod:`pagoda.doudizhu`; they do no I/O and
depend only on :mod:`pagoda.core`, the notation, record and preset machinery they share.
"""

__version__ = "0.1.0"
