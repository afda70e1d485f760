"""The codec's fast decoder (``codec._fast_of``: plainly valid tables, written out as one
function per dataclass) decides exactly as the generic one: the same value for what it
passes, and it passes nothing the generic decoder refuses (which then says why)."""

from __future__ import annotations

import copy

import pytest

from munda_tui.saves import codec
from munda_tui.saves.codec import ValidationError

ODD = (None, "é ü", "x" * 300_000, -1, 2**70, True, 1.5, ["a", 1], {"a": 1}, "not-a-value")


def _leaves(data, path=()):
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _leaves(v, (*path, k))
            yield (*path, k)
    elif isinstance(data, list):
        for i, v in enumerate(data[:1]):
            yield from _leaves(v, (*path, i))


def _set(data, path, value):
    data = copy.deepcopy(data)
    at = data
    for p in path[:-1]:
        at = at[p]
    at[path[-1]] = value
    return data


def _outcome(data):
    try:
        return ("ok", codec.campaign_from_data(data))
    except ValidationError as error:
        return ("refused", str(error))


def test_the_fast_decoder_decides_as_the_generic_one(full_campaign, monkeypatch):
    data = codec.campaign_to_data(full_campaign)
    data["gangs"], data["battles"] = data["gangs"][:1], data["battles"][:1]
    paths = list(_leaves({k: v for k, v in data.items() if k != "settings"}))
    assert len(paths) > 60
    cases = [data] + [_set(data, p, v) for p in paths for v in ODD]
    fast = [_outcome(c) for c in cases]
    monkeypatch.setattr(codec, "_fast_of", lambda cls: lambda data: codec._FAIL)  # generic only
    slow = [_outcome(c) for c in cases]
    assert fast[0][0] == "ok" and fast == slow
    assert sum(1 for f in fast if f[0] == "refused") > len(cases) // 3


def test_the_fast_decoder_passes_a_saved_league_gang_at_once():
    """(What the league's open relies on: a generated gang goes the fast way whole.)"""
    from munda_tui.rules.core import model as m
    from scripts.generate import league_campaign

    gang = league_campaign(gangs=1, fighters=8, battles=0, seed=3).gangs[0]
    made = codec._fast_of(m.Gang)(codec.to_data(gang))
    assert made is not codec._FAIL and made == gang
