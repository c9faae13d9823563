"""Every text leaderboard says where its order and figures come from, and names the
neighbours the joint model orders the other way from TrueSkill: the two never disagree
silently."""

from __future__ import annotations

from arena.league.leaderboard import ORDER_NOTE, Row, disagreements, render


def _row(rank: int, name: str, p: float | None) -> Row:
    return Row(
        rank=rank, name=name, conservative=30.0 - rank, mu=33.0 - rank, sigma=1.0,
        matches=40, wins=10, mean_score=1.0, mean_rank=2.0, timeouts=0, errors=0,
        invalid=0, rank_low=rank, rank_high=rank, p_above_next=p,
    )  # fmt: skip


def test_a_board_that_agrees_says_where_its_figures_come_from() -> None:
    rows = [_row(1, "a", 0.97), _row(2, "b", 0.8), _row(3, "c", None)]
    assert disagreements(rows) == []
    for fmt in ("table", "markdown"):
        text = render(rows, fmt, "lg/abluxxen/amigo/4p")
        assert ORDER_NOTE in text
        assert "orders differently" not in text


def test_a_pair_the_joint_model_orders_the_other_way_is_named() -> None:
    rows = [_row(1, "a", 0.97), _row(2, "b", 0.3), _row(3, "c", None)]
    assert disagreements(rows) == ["c > b (p 0.70)"]
    for fmt in ("table", "markdown"):
        text = render(rows, fmt, "lg/abluxxen/amigo/4p")
        assert "the joint model orders differently: c > b (p 0.70)" in text


def test_a_bot_supplied_name_is_shown_escaped_in_the_note() -> None:
    rows = [_row(1, "a", 0.2), _row(2, "b\x1b[31m", None)]
    (line,) = disagreements(rows)
    assert "\x1b" not in line
