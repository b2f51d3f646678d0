"""Matches name their rule set; a game's snapshot becomes the engine's own IDs.

Every stored match is Long Nardy (``rules`` defaults to it). The Long Nardy columns
of the snapshot (points, off counts, dice left, head counter) are turned into the
engine's position and turn IDs, which carry the same information, and dropped; a
finished game gets its result name (single, mars, or resigned).
"""

from django.db import migrations, models


def to_neutral(apps, schema_editor):
    from nardy import Position, TurnState

    Game = apps.get_model("games", "Game")
    for game in Game.objects.all().iterator():
        position = Position(tuple(game.points), (game.off_white, game.off_black))
        game.position_key = position.to_id()
        if game.phase == "move" and game.dice:
            side = 0 if game.turn == "white" else 1
            first = game.white_first_turn if side == 0 else game.black_first_turn
            game.turn_key = TurnState(position, side, tuple(game.dice), tuple(game.dice_left),
                                      game.head_left, first).to_id()
        if game.winner:
            game.result = ("resigned" if game.end_reason == "resigned"
                           else "mars" if game.mars else "single")
        game.save(update_fields=["position_key", "turn_key", "result"])


def to_columns(apps, schema_editor):
    from nardy import Position, TurnState

    Game = apps.get_model("games", "Game")
    for game in Game.objects.all().iterator():
        position = Position.from_id(game.position_key)
        game.points, (game.off_white, game.off_black) = list(position.points), position.off
        if game.turn_key:
            state = TurnState.from_id(game.turn_key)
            game.dice_left, game.head_left = list(state.dice_left), state.head_left
        game.save(update_fields=["points", "off_white", "off_black", "dice_left", "head_left"])


class Migration(migrations.Migration):

    dependencies = [("games", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="match", name="rules",
            field=models.CharField(
                choices=[("long_nardy", "Long Nardy"), ("short_nardy", "Short nardy"),
                         ("backgammon", "Backgammon"), ("nard", "Nard")],
                db_index=True, default="long_nardy",
                help_text="The rule set (nardy.RULESETS).", max_length=16)),
        migrations.AddConstraint(
            model_name="match",
            constraint=models.CheckConstraint(
                condition=models.Q(("rules__in", ["long_nardy", "short_nardy", "backgammon",
                                                  "nard"])), name="match_rules_known")),
        migrations.AddField(
            model_name="game", name="position_key",
            field=models.CharField(default="", help_text="The engine's position ID of the "
                                   "board now.", max_length=64),
            preserve_default=False),
        migrations.AddField(
            model_name="game", name="turn_key",
            field=models.CharField(blank=True, default="", help_text="The engine's turn ID "
                                   "while a turn is played.", max_length=64),
            preserve_default=False),
        migrations.AddField(
            model_name="game", name="result",
            field=models.CharField(
                blank=True, default="", max_length=10,
                choices=[("single", "Single"), ("mars", "Mars"), ("koks", "Koks"),
                         ("gammon", "Gammon"), ("backgammon", "Backgammon"),
                         ("resigned", "Resigned")]),
            preserve_default=False),
        migrations.RunPython(to_neutral, to_columns),
        migrations.RemoveConstraint(model_name="game", name="game_points_1_or_2"),
        migrations.RemoveConstraint(model_name="game", name="game_off_at_most_15"),
        migrations.RemoveConstraint(model_name="game", name="game_winner_has_points"),
        migrations.RemoveConstraint(model_name="game", name="game_mars_is_two_points"),
        migrations.RemoveField(model_name="game", name="points"),
        migrations.RemoveField(model_name="game", name="off_white"),
        migrations.RemoveField(model_name="game", name="off_black"),
        migrations.RemoveField(model_name="game", name="dice_left"),
        migrations.RemoveField(model_name="game", name="head_left"),
        migrations.AlterField(
            model_name="game", name="mars",
            field=models.BooleanField(
                default=False, help_text="Won with more than a single game (mars, koks, "
                "gammon, backgammon; for a resignation, what it conceded).")),
        migrations.AlterField(
            model_name="turn", name="steps",
            field=models.JSONField(
                blank=True, default=list,
                help_text='[{"from", "to", "die", "hit"}] in the mover\'s numbering (from 25: '
                          'entering from the bar).')),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(("points_won__isnull", True), ("points_won__gte", 1),
                                   _connector="OR"), name="game_points_positive")),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("winner", ""), ("points_won__isnull", True), ("result", "")),
                    models.Q(models.Q(("winner", ""), _negated=True),
                             ("points_won__isnull", False),
                             models.Q(("result", ""), _negated=True)),
                    _connector="OR"),
                name="game_winner_has_points_and_result")),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.CheckConstraint(
                condition=models.Q(models.Q(("mars", True), _negated=True),
                                   ("points_won__gte", 2), _connector="OR"),
                name="game_mars_is_more_than_one_point")),
    ]
