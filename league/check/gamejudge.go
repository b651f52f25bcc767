package check

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

func (c *gameChecker) judgeDeterminism(first, again, other gameRun) {
	if i, ok := firstDifference(first.transcript, again.transcript); ok {
		c.rec.add(gameDeterministic, finding{Status: Fail,
			Message: fmt.Sprintf("match R1M1, league seed %d, played twice with the same moves: the program's message %d differs", c.opts.Seed, i+1),
			Sent:    "the same start (seed) and the same moves, twice",
			Got:     fmt.Sprintf("first %s, then %s", clip([]byte(at(first.transcript, i))), clip([]byte(at(again.transcript, i)))),
			Exp:     "the same messages, every one: a game draws from the start's seed alone"})
		return
	}
	_, differs := firstDifference(first.transcript, other.transcript)
	c.rec.pass(gameDeterministic, fmt.Sprintf("the same seed twice gave the same %d messages; another seed gave %s",
		len(first.transcript), map[bool]string{true: "others", false: "the same (allowed)"}[differs]))
}

func at(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return "(no message)"
}

func firstDifference(a, b []string) (int, bool) {
	for i := 0; i < max(len(a), len(b)); i++ {
		if i >= len(a) || i >= len(b) || a[i] != b[i] {
			return i, true
		}
	}
	return 0, false
}

func (c *gameChecker) judgeLegal(runs []gameRun) {
	moves := 0
	for i, r := range runs {
		switch {
		case len(r.refused) > 0:
			c.rec.add(gameLegalMoves, finding{Status: Fail, Message: fmt.Sprintf("match %d: a move its own options listed was refused", i+1),
				Got: r.refused[0], Exp: "every move in a turn's options is accepted"})
			return
		case r.unlisted:
			c.rec.skip(gameLegalMoves, "a seat was asked without options: the checker cannot draw legal moves")
			return
		case r.failure != "":
			c.rec.add(gameLegalMoves, finding{Status: Fail, Message: fmt.Sprintf("match %d of legal moves failed the game", i+1),
				Got: r.failure, Exp: "a match of legal moves ends with an end message"})
			return
		}
		moves += r.turns
	}
	c.rec.pass(gameLegalMoves, fmt.Sprintf("%d matches of random legal moves, %d turns, every move accepted", len(runs), moves))
}

func (c *gameChecker) judgeGarbage(r gameRun) {
	switch {
	case len(r.garbage) > 0:
		c.rec.add(gameGarbage, finding{Status: Fail, Message: "an answer that is no move was not refused as not_a_move",
			Sent: "each of: an unknown word, \"\", 64 KiB of x, `{\"choice\":`, `[1,2,3]`", Got: r.garbage[0],
			Exp: "a not_a_move verdict each time, and the game going on"})
	case r.unlisted:
		c.rec.skip(gameGarbage, "a seat was asked without options: any answer may be a move")
	case r.failure != "":
		c.rec.add(gameGarbage, finding{Status: Fail, Message: "after answers that are no move the match failed",
			Got: r.failure, Exp: "the match ends with an end message"})
	default:
		c.rec.pass(gameGarbage, fmt.Sprintf("every answer that is no move refused, in %d turns, and the match ended", r.turns))
	}
}

func (c *gameChecker) judgeTurnLimit(runs []gameRun) {
	most := 0
	for i, r := range runs {
		if !r.over && !r.unlisted {
			c.rec.add(gameTurnLimit, finding{Status: Fail, Message: fmt.Sprintf("match %d was not over after %d turns", i+1, r.turns),
				Exp: fmt.Sprintf("an end within %d turns (the manifest names no turn limit)", GameTurnLimit)})
			return
		}
		most = max(most, r.turns)
	}
	c.rec.pass(gameTurnLimit, fmt.Sprintf("every match ended, the longest in %d turns (limit %d)", most, GameTurnLimit))
}

func (c *gameChecker) judgeHidden(r gameRun) {
	switch {
	case len(r.hidden) > 0:
		c.rec.add(gameHidden, finding{Status: Fail, Message: "what a seat is told changed with the other seat's move of the same turn",
			Got: r.hidden[0], Exp: "a seat learns nothing of the other's move before the turn ends"})
	case !r.simultaneous():
		c.rec.pass(gameHidden, "no turn asked both seats: no move of the other seat to hide")
	default:
		c.rec.pass(gameHidden, "in turns asking both seats, a refused seat was told the same before and after the other's move")
	}
}

// simultaneous: the probe match had a turn asking both seats (it then
// records exchanges for B before A's move).
func (r gameRun) simultaneous() bool { return r.both }

func (c *gameChecker) judgeTurnTime(runs []gameRun) {
	var all []time.Duration
	for i, r := range runs {
		all = append(all, r.times...)
		if strings.Contains(r.failure, "within") {
			c.rec.add(gameTurnTime, finding{Status: Fail, Message: fmt.Sprintf("match %d: the program did not answer within its deadline", i+1),
				Got: r.failure, Exp: fmt.Sprintf("an answer within the manifest's deadlines (start %v, answer %v)",
					c.man.Deadlines.Start(), c.man.Deadlines.Answer())})
			return
		}
	}
	slices.Sort(all)
	if len(all) == 0 {
		c.rec.skip(gameTurnTime, "no exchange with the program")
		return
	}
	median, worst := all[len(all)/2], all[len(all)-1]
	msg := fmt.Sprintf("%d answers: median %v, max %v (deadline %v)", len(all), median.Round(time.Microsecond), worst.Round(time.Microsecond), c.man.Deadlines.Answer())
	if worst > max(c.man.Deadlines.Answer(), c.man.Deadlines.Start()) {
		c.rec.add(gameTurnTime, finding{Status: Fail, Message: msg, Exp: "every answer within the manifest's deadline"})
		return
	}
	c.rec.pass(gameTurnTime, msg)
}
