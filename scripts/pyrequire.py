"""Imports a Python module, installing its pinned version on a bare machine: for the scripts
`scripts/test.sh` runs."""
import subprocess
import sys


def require(module, requirement):
    """Imports `module`, installing `requirement` (`name==version`) first when it is missing."""
    try:
        return __import__(module)
    except ImportError:
        subprocess.check_call([sys.executable, "-m", "pip", "install", "-q", requirement])
        return __import__(module)
