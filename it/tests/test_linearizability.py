# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""The checker it/tools/chaos uses, on histories whose verdict is known: it must say no to each anomaly the
durability issue names (a lost acknowledged write, an undone delete, a stale value after a newer one, a refused
write brought back) and yes to the histories a correct store produces, with unanswered operations either way."""
import collections
import copy
import itertools
import math
import random
import time

from linearizability import FAIL, INFO, OK, Op, check, check_key


def w(value, start, end, outcome=OK, process=0):
    return Op(process, "write", value, start, end, outcome)


def r(value, start, end, process=1):
    return Op(process, "read", value, start, end, OK)


def valid(ops):
    return check_key("k", ops).valid


def test_sequential_writes_and_reads():
    assert valid([w(1, 0, 1), r(1, 2, 3), w(2, 4, 5), r(2, 6, 7)])
    assert not valid([w(1, 0, 1), w(2, 2, 3), r(1, 4, 5)])        # a stale value after a newer one


def test_a_lost_acknowledged_write_is_caught_by_the_final_read():
    assert not valid([w(1, 0, 1), w(2, 2, 3), r(None, 10, 10)])


def test_an_undone_delete_is_caught():
    assert not valid([w(1, 0, 1), w(None, 2, 3), r(1, 10, 10)])
    assert valid([w(1, 0, 1), w(None, 2, 3), r(None, 10, 10)])


def test_concurrent_writes_may_take_effect_in_either_order():
    ops = [w(1, 0, 5, process=0), w(2, 1, 4, process=2)]
    assert valid(ops + [r(1, 6, 7)])
    assert valid(ops + [r(2, 6, 7)])
    assert not valid(ops + [r(3, 6, 7)])


def test_an_unanswered_write_may_or_may_not_take_effect_later():
    assert valid([w(1, 0, 1), w(2, 2, math.inf, INFO), r(1, 3, 4), r(2, 5, 6)])
    assert valid([w(1, 0, 1), w(2, 2, math.inf, INFO), r(1, 10, 10)])
    # ... but once a later read saw the older value after it, it cannot come back before that read
    assert not valid([w(1, 0, 1), w(2, 2, math.inf, INFO), r(2, 3, 4), r(1, 5, 6)])


def test_an_unanswered_write_takes_effect_before_its_bound_or_never():
    # Its process died at 5: afterwards, either it took effect before 5, or it never did.
    assert valid([w(1, 0, 1), w(2, 2, 5, INFO), r(1, 10, 11)])
    assert valid([w(1, 0, 1), w(2, 2, 5, INFO), r(2, 10, 11)])
    assert not valid([w(1, 0, 1), w(2, 2, 5, INFO), r(1, 10, 11), r(2, 12, 13)])
    assert not valid([w(1, 0, 1), w(2, 2, 5, INFO), w(3, 6, 7), r(2, 10, 11)])
    # the same for a delete (all deletes write the same "absent": the value does not tell whether it was done)
    assert valid([w(1, 0, 1), w(None, 2, 5, INFO), r(1, 10, 11)])
    assert valid([w(1, 0, 1), w(None, 2, 5, INFO), r(None, 10, 11)])
    assert not valid([w(1, 0, 1), w(None, 2, 5, INFO), r(None, 10, 11), r(1, 12, 13)])


def test_a_refused_write_never_takes_effect():
    history = {"k": [w(1, 0, 1), w(2, 2, 3, FAIL), r(2, 10, 10)]}
    verdict, = check(history)
    assert not verdict.valid and "refused" in verdict.reason
    verdict, = check({"k": [w(1, 0, 1), w(2, 2, 3, FAIL), r(1, 10, 10)]})
    assert verdict.valid


def test_many_concurrent_operations_are_checked_quickly():
    ops = []
    for i in range(60):
        ops.append(w(i, i, i + 3.5, process=i % 4))
        ops.append(r(i, i + 3.6, i + 3.7, process=9))
    assert valid(ops)


def by_brute_force(ops, initial=None):
    """The definition, tried exhaustively: some of the unanswered writes take effect, every acknowledged operation
    does, in some order whose moments can be chosen inside their windows, and each read sees the last write."""
    ops = [op for op in ops if op.outcome != FAIL]
    must = [op for op in ops if op.outcome == OK]
    maybe = [op for op in ops if op.outcome == INFO]
    for chosen in itertools.chain.from_iterable(itertools.combinations(maybe, k) for k in range(len(maybe) + 1)):
        for order in itertools.permutations(must + list(chosen)):
            moment, value, fits = -math.inf, initial, True
            for op in order:
                moment = max(moment, op.invoked)
                if moment > op.completed or (op.kind == "read" and op.value != value):
                    fits = False
                    break
                if op.kind == "write":
                    value = op.value
            if fits:
                return True
    return False


def test_the_search_agrees_with_the_definition_on_random_histories():
    """Small random histories with overlapping windows, deletes, unanswered and refused writes, stale and future
    reads: the search (with its shortcuts for unanswered writes) says yes exactly when some order exists."""
    rng = random.Random(55)
    verdicts = collections.Counter()
    for _ in range(3000):
        ops, written = [], [None]
        for _ in range(rng.randint(1, 7)):
            start = rng.uniform(0, 20)
            end = start + rng.choice([0.1, 1, 3, 6])
            roll = rng.random()
            if roll < 0.45:
                value = rng.choice([None, len(written)])
                written.append(value)
                outcome = rng.choice([OK, OK, OK, INFO, FAIL])
                ops.append(w(value, start, end, outcome, process=len(ops)))
            else:
                ops.append(r(rng.choice(written + [len(written)]), start, end, process=len(ops)))
        expected = by_brute_force(ops)
        assert valid(copy.deepcopy(ops)) == expected, "\n".join(map(str, ops))
        verdicts[expected] += 1
    assert verdicts[True] > 500 and verdicts[False] > 500        # both answers were exercised


def test_a_long_history_of_a_busy_key_is_checked_in_seconds():
    """Eight clients for 40 minutes of a chaos run, about 3,500 operations on one key, with unanswered writes and
    deletes around faults: the earlier search did not finish such a history in 15 minutes."""
    rng = random.Random(5529)
    ops, value, now, next_value = [], None, 0.0, 1
    clients = [0.0] * 8
    while len(ops) < 3500:
        p = min(range(8), key=clients.__getitem__)
        start = clients[p]
        end = start + rng.uniform(0.01, 0.3)
        roll = rng.random()
        if roll < 0.4:
            ops.append(r(value, start, end, process=p))      # sequential enough that the value is known
        elif roll < 0.97:
            value = None if roll > 0.85 else next_value
            next_value += 1
            ops.append(w(value, start, end, process=p))
        else:
            ops.append(w(None if roll > 0.99 else -next_value, start, start + 120, INFO, process=p))
            next_value += 1
        clients[p] = end + rng.uniform(0.1, 0.5)
        now = max(now, end)
    started = time.monotonic()
    assert valid(ops)
    assert time.monotonic() - started < 30
