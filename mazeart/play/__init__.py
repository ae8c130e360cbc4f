"""Play mazes: the game rules (:mod:`mazeart.play.game`), best times, and the terminal game.

The rules live apart from any screen so the terminal game and tests share them;
the browser game (:mod:`mazeart.export.html`) follows the same rules in
JavaScript.
"""

from mazeart.play.game import Game, best_times_path, load_best_times, record_time

__all__ = ["Game", "best_times_path", "load_best_times", "record_time"]
