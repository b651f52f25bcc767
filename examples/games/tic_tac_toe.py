#!/usr/bin/env python3
"""Tic-tac-toe as a game program (docs/games.md, "Writing a game").

leaguetui writes one JSON object a line on standard input; the game
answers each with one JSON object a line on standard output. Turns are
sequential: one seat is asked at a time. Standard library only.
"""
import json
import sys

LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]
MARK = {"A": "X", "B": "O"}
OTHER = {"A": "B", "B": "A"}


def send(message):
    sys.stdout.write(json.dumps(message, separators=(",", ":")) + "\n")
    sys.stdout.flush()


class Game:
    def __init__(self, first):
        self.board = ["."] * 9
        self.to_move = first
        self.pending = None  # the move of this turn, once accepted
        self.moves = []

    def free(self):
        return [str(i + 1) for i, c in enumerate(self.board) if c == "."]

    def drawing(self):
        rows = ["".join(self.board[r * 3:r * 3 + 3]) for r in range(3)]
        return "\n".join(" ".join(row) for row in rows)

    def turn(self):
        seats = []
        for seat in ("A", "B"):
            entry = {"seat": seat, "asked": seat == self.to_move,
                     "observation": {"board": "".join(self.board), "you": MARK[seat], "to_move": MARK[self.to_move]},
                     "text": self.drawing()}
            if seat == self.to_move:
                entry["move_type"] = "place"
                entry["options"] = self.free()
            seats.append(entry)
        return {"type": "turn", "seats": seats, "progress": "%s to move, %d placed" % (MARK[self.to_move], len(self.moves))}

    def verdict(self, seat, move):
        square = move.strip()
        if seat != self.to_move:
            return {"type": "verdict", "seat": seat, "verdict": "not_a_move", "reason": "it is not your turn"}
        if square not in self.free():
            return {"type": "verdict", "seat": seat, "verdict": "not_a_move",
                    "reason": "%s is not a free square: want one of %s" % (json.dumps(move), " ".join(self.free()))}
        self.pending = int(square) - 1
        return {"type": "verdict", "seat": seat, "verdict": "accepted", "move": square}

    def advance(self):
        seat = self.to_move
        self.board[self.pending] = MARK[seat]
        self.moves.append(str(self.pending + 1))
        self.pending = None
        for line in LINES:
            if all(self.board[i] == MARK[seat] for i in line):
                return self.end(seat, "%s (%s) made a line: %s" % (seat, MARK[seat], " ".join(str(i + 1) for i in line)))
        if "." not in self.board:
            return self.end("", "the board is full with no line")
        self.to_move = OTHER[seat]
        return self.turn()

    def end(self, winner, why):
        statuses = {"A": "DRAW", "B": "DRAW"}
        if winner:
            statuses = {winner: "WON", OTHER[winner]: "LOST"}
        return {"type": "end", "winner": winner,
                "seats": [{"seat": s, "status": statuses[s]} for s in ("A", "B")],
                "details": {"board": "".join(self.board), "moves": " ".join(self.moves)},
                "reason": why + " after %d moves" % len(self.moves),
                "step": ("%s wins" % MARK[winner] if winner else "draw") + " in %d" % len(self.moves)}


def main():
    game = None
    for line in sys.stdin:
        msg = json.loads(line)
        kind = msg.get("type")
        if kind == "start":
            first = msg.get("options", {}).get("first", "A")
            if first not in MARK:
                send({"type": "error", "message": "option first %r: want A or B" % first})
                return
            game = Game(first)
            send(game.turn())
        elif kind == "move" and game:
            send(game.verdict(msg["seat"], msg["move"]))
        elif kind == "advance" and game:
            send(game.advance())
        else:
            send({"type": "error", "message": "unexpected %r" % kind})
            return


if __name__ == "__main__":
    main()
