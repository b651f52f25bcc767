package engine

import (
	"cmp"
	"slices"
)

// A season is leagues of one game whose results add up: its players are
// known by name across leagues, and its ratings are one Bradley–Terry fit
// (FitRatings) over every game of every league, not an average of the
// leagues' own fits. A player who missed a league is rated on what it
// played; PlayerRating.Games says how many games its rating rests on.

// SeasonLeague is one league of a season: its results and its table, each
// naming players by their season names.
type SeasonLeague struct {
	ID      string
	Results []Result      // every result, players by season name
	Rows    []SeasonTotal // its table, a row per player
}

// SeasonTotal is what a player scored in a league, or over a season.
type SeasonTotal struct {
	Name            string  `json:"name"`
	Leagues         int     `json:"leagues"`
	Played          int     `json:"played"`
	Wins            int     `json:"wins"`
	Draws           int     `json:"draws"`
	Losses          int     `json:"losses"`
	TechnicalLosses int     `json:"technical_losses"`
	Points          float64 `json:"points"`
}

// SeasonRow is one line of the season's table: the totals, the rating
// fitted over the whole season, the likelihood that the player is
// stronger than the next one down (nil for the last, or an unrated one),
// and the ranks the season's fit allows it with its tie group
// (RankIntervals over the season's fit).
type SeasonRow struct {
	SeasonTotal
	Rank    int
	Rating  PlayerRating
	LOSNext *float64
	Ranks   RankInterval
}

// SeasonResults is every result of the season, league after league: what
// the season's fit is made over.
func SeasonResults(leagues []SeasonLeague) []Result {
	var all []Result
	for _, l := range leagues {
		all = append(all, l.Results...)
	}
	return all
}

// SeasonNames lists every player of the season in its natural order
// (SortIDs), the order the fit is given them in, so that the same leagues
// give the same ratings whichever order they were added in.
func SeasonNames(leagues []SeasonLeague) []string {
	seen := map[string]bool{}
	var names []string
	for _, l := range leagues {
		for _, r := range l.Rows {
			if !seen[r.Name] {
				seen[r.Name] = true
				names = append(names, r.Name)
			}
		}
	}
	SortIDs(names)
	return names
}

// FitSeason is the season's ratings: FitRatings over every result of
// every league.
func FitSeason(leagues []SeasonLeague, opts RatingOptions) *Ratings {
	return FitRatings(SeasonNames(leagues), SeasonResults(leagues), opts)
}

// SeasonTable is the season's table, best rated first (ties by name):
// each player's totals over the leagues it played and its season rating.
func SeasonTable(leagues []SeasonLeague, opts RatingOptions) []SeasonRow {
	fit := FitSeason(leagues, opts)
	totals := map[string]*SeasonTotal{}
	for _, l := range leagues {
		for _, r := range l.Rows {
			t, ok := totals[r.Name]
			if !ok {
				t = &SeasonTotal{Name: r.Name}
				totals[r.Name] = t
			}
			t.Leagues++
			t.Played += r.Played
			t.Wins += r.Wins
			t.Draws += r.Draws
			t.Losses += r.Losses
			t.TechnicalLosses += r.TechnicalLosses
			t.Points += r.Points
		}
	}
	ranks := map[string]RankInterval{}
	for _, iv := range RankIntervals(fit) {
		ranks[iv.PlayerID] = iv
	}
	rows := make([]SeasonRow, 0, len(totals))
	for _, name := range SeasonNames(leagues) {
		p, _ := fit.Rating(name)
		rows = append(rows, SeasonRow{SeasonTotal: *totals[name], Rating: p, Ranks: ranks[name]})
	}
	slices.SortStableFunc(rows, func(a, b SeasonRow) int {
		return cmp.Or(byRating(a.Rating, b.Rating), cmp.Compare(a.Name, b.Name))
	})
	for i := range rows {
		rows[i].Rank = i + 1
		if i+1 < len(rows) && rows[i].Rating.Rated && rows[i+1].Rating.Rated {
			los := fit.LOS(rows[i].Name, rows[i+1].Name)
			rows[i].LOSNext = &los
		}
	}
	return rows
}

// byRating orders rated players before unrated ones, the higher rating
// first.
func byRating(a, b PlayerRating) int {
	if a.Rated != b.Rated {
		if a.Rated {
			return -1
		}
		return 1
	}
	return cmp.Compare(b.Elo, a.Elo)
}

// SeasonHistory is the season's fit after each league: history[k] is
// FitSeason over the first k+1 leagues, the points of the rating chart.
func SeasonHistory(leagues []SeasonLeague, opts RatingOptions) []*Ratings {
	out := make([]*Ratings, len(leagues))
	for k := range leagues {
		out[k] = FitSeason(leagues[:k+1], opts)
	}
	return out
}
