# Copyright (c) 2026 Oko contributors and others. All rights reserved.
#
# This program and the accompanying materials are made available under the
# terms of the Eclipse Public License v1.0 which accompanies this distribution,
# and is available at http://www.eclipse.org/legal/epl-v10.html
"""The checker it/tools/chaos uses, on histories whose verdict is known: it must say no to each anomaly the
durability issue names (a lost acknowledged write, an undone delete, a stale value after a newer one, a refused
write brought back) and yes to the histories a correct store produces, with unanswered operations either way."""
import math

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
