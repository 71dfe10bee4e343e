"""The objects with state (encryptor, decryptor, mac_stream) used from two
threads at once: while one thread is inside a method, on an input large
enough that it runs with the GIL released, a call to any method from
another thread raises the documented ValueError, and the first thread's
work and the object's later use are unaffected.

The long calls run on the slow `reference` backend so that they last a
while; the expected results come from the default backend."""

import threading
import time

import pytest

import multiblock

BUSY = "this context is in use by another thread"
KUZ_KEY = bytes(range(32))
KAL_KEY = bytes(range(16))


class Inconclusive(Exception):
    """The other thread's call ended before the probe could meet it."""


def run_contended(make, long_call, probe, first_size):
    """Makes an object, runs `long_call(obj, data)` in a thread and, once
    that thread holds the object, `probe(obj)` here: it must raise the
    busy ValueError. Returns (obj, data, the long call's result).

    The thread is seen holding the object when a harmless `update(b"")`
    from here is refused as busy; the input doubles if the long call ends
    too soon on a fast machine."""
    size = first_size
    for _ in range(6):
        try:
            return _attempt(make, long_call, probe, (bytes(range(251)) * (size // 251 + 1))[:size])
        except Inconclusive:
            size *= 2
    pytest.fail("the long call never lasted long enough to be met by another thread")


def _attempt(make, long_call, probe, data):
    obj = make()
    result = {}
    go = threading.Barrier(2)

    def owner():
        go.wait()
        try:
            result["value"] = long_call(obj, data)
        except BaseException as e:  # handed to the main thread
            result["error"] = e

    t = threading.Thread(target=owner)
    t.start()
    go.wait()
    try:
        # Wait until the owner holds the object: then an empty update is busy.
        while True:
            try:
                obj.update(b"")
            except ValueError as e:
                assert BUSY in str(e)
                break
            if not t.is_alive():
                raise Inconclusive
            time.sleep(0.001)
        try:
            probe(obj)
        except ValueError as e:
            assert str(e) == BUSY
        else:
            if t.is_alive():
                pytest.fail("a call went through while another thread was inside the object")
            raise Inconclusive  # the owner had finished meanwhile
    finally:
        t.join()
    if "error" in result:
        raise result["error"]
    return obj, data, result["value"]


# The probes: every method of the objects, with an argument that would
# change the result if it were taken.
STREAM_PROBES = {
    "update": lambda ctx: ctx.update(b"extra"),
    "finalize": lambda ctx: ctx.finalize(),
    "tag": lambda ctx: ctx.tag,
}


@pytest.mark.parametrize("probe", STREAM_PROBES, ids=str)
def test_encryptor_busy_during_update(probe):
    iv = bytes(8)
    obj, data, first = run_contended(
        lambda: multiblock.encryptor("kuznyechik", "ctr", KUZ_KEY, iv=iv, backend="reference"),
        lambda ctx, data: ctx.update(data),
        STREAM_PROBES[probe],
        512 * 1024,
    )
    # The object goes on as if the probe had not happened.
    assert first + obj.finalize() == multiblock.encrypt("kuznyechik", "ctr", KUZ_KEY, data, iv=iv)
    assert obj.tag is None


@pytest.mark.parametrize("probe", STREAM_PROBES, ids=str)
def test_decryptor_busy_during_update(probe):
    iv = bytes(range(1, 17))
    aad = b"header"

    def make():
        return multiblock.decryptor("kuznyechik", "mgm", KUZ_KEY, iv=iv, aad=aad, backend="reference")

    def long_call(ctx, data):
        sealed = multiblock.encrypt("kuznyechik", "mgm", KUZ_KEY, data, iv=iv, aad=aad)
        return ctx.update(sealed)

    obj, data, first = run_contended(make, long_call, STREAM_PROBES[probe], 512 * 1024)
    assert first + obj.finalize() == data


@pytest.mark.parametrize("probe", STREAM_PROBES, ids=str)
def test_ccm_encryptor_busy_during_finalize(probe):
    """CCM does all its work in finalize(): the object is busy there, and
    `.tag` is not read as missing before finalize() has set it."""
    iv = bytes(range(16))

    def long_call(ctx, data):
        assert ctx.update(data) == b""
        return ctx.finalize()

    obj, data, body = run_contended(
        lambda: multiblock.encryptor("kalyna-128-128", "ccm", KAL_KEY, iv=iv, backend="reference"),
        long_call,
        STREAM_PROBES[probe],
        64 * 1024,
    )
    assert body + obj.tag == multiblock.encrypt("kalyna-128-128", "ccm", KAL_KEY, data, iv=iv)
    with pytest.raises(ValueError, match="finalized"):
        obj.finalize()


MAC_PROBES = {
    "update": lambda m: m.update(b"extra"),
    "finalize": lambda m: m.finalize(),
}


@pytest.mark.parametrize("probe", MAC_PROBES, ids=str)
def test_mac_stream_busy_during_update(probe):
    obj, data, first = run_contended(
        lambda: multiblock.mac_stream("kuznyechik", "mac", KUZ_KEY, backend="reference"),
        lambda m, data: m.update(data),
        MAC_PROBES[probe],
        512 * 1024,
    )
    assert first is None
    assert obj.finalize() == multiblock.mac("kuznyechik", "mac", KUZ_KEY, data)
