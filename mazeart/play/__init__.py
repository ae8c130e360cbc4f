"""Play mazes: the game rules (:mod:`mazeart.play.game`), best times, and the terminal game.

The rules live apart from any screen so the terminal game and tests share them;
the browser game (:mod:`mazeart.export.html`) follows the same rules in
JavaScript. Best times are kept per maze (:func:`maze_key`), the five best of
each (:func:`record_score`).
"""

from mazeart.play.game import (
    KEEP,
    Game,
    Score,
    best_times_path,
    load_best_times,
    load_scores,
    maze_key,
    record_score,
    record_time,
    top_times,
)

__all__ = [
    "KEEP",
    "Game",
    "Score",
    "best_times_path",
    "load_best_times",
    "load_scores",
    "maze_key",
    "record_score",
    "record_time",
    "top_times",
]
