package ticket

import "testing"

// FuzzKeyed: a Keyed mints the ticket Mint does and finds valid exactly
// the tickets Valid does, the minted one and any other text, for any key,
// league, match and referee, one after the other with the same buffers.
func FuzzKeyed(f *testing.F) {
	f.Add("tk-key", "league_1", "R1M1", "REF01", "")
	f.Add("", "", "", "", "mt-")
	f.Add("k\x00", "l\x00m", "", "REF\xff", "mt-00")
	f.Fuzz(func(t *testing.T, key, leagueID, matchID, refereeID, other string) {
		c := NewKeyed(key)
		minted := Mint(key, leagueID, matchID, refereeID)
		if got := c.Mint(leagueID, matchID, refereeID); got != minted {
			t.Fatalf("Keyed.Mint = %q, Mint %q", got, minted)
		}
		for _, ticket := range []string{minted, other, minted[:len(minted)-1] + "x", minted + "0", Mint(key+"x", leagueID, matchID, refereeID)} {
			if got, want := c.Valid(ticket, leagueID, matchID, refereeID), Valid(key, ticket, leagueID, matchID, refereeID); got != want {
				t.Fatalf("Keyed.Valid(%q, %q, %q, %q) with key %q = %v, Valid %v", ticket, leagueID, matchID, refereeID, key, got, want)
			}
		}
		if !c.Valid(minted, leagueID, matchID, refereeID) {
			t.Fatal("the minted ticket is not valid")
		}
	})
}

// BenchmarkValid is a player's check of a match's ticket, by Valid and by
// a Keyed made once for the key; BenchmarkMint a manager's minting of one.
func BenchmarkValid(b *testing.B) {
	key, league, match, referee := "tk-5f3a", "league_2025_even_odd", "R12M7", "REF03"
	ticket := Mint(key, league, match, referee)
	b.Run("Valid", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if !Valid(key, ticket, league, match, referee) {
				b.Fatal("invalid")
			}
		}
	})
	b.Run("Keyed", func(b *testing.B) {
		c := NewKeyed(key)
		b.ReportAllocs()
		for b.Loop() {
			if !c.Valid(ticket, league, match, referee) {
				b.Fatal("invalid")
			}
		}
	})
}

func BenchmarkMint(b *testing.B) {
	key, league, match, referee := "tk-5f3a", "league_2025_even_odd", "R12M7", "REF03"
	b.Run("Mint", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			_ = Mint(key, league, match, referee)
		}
	})
	b.Run("Keyed", func(b *testing.B) {
		c := NewKeyed(key)
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Mint(league, match, referee)
		}
	})
}
