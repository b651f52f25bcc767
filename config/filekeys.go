package config

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
)

// fileKey is where a config folder holds a setting: the file, relative to
// the folder ("%s" is the league id), and the key as written in it.
type fileKey struct{ file, key string }

// settingFiles maps the names Validate gives settings (Config's) to the
// files and keys of a config folder, which a user edits.
var settingFiles = map[string]fileKey{
	"league_id":                         {"system.json", "default_league_id"},
	"game_type":                         {"leagues/%s.json", "game_type"},
	"network.host":                      {"system.json", "network.base_host"},
	"network.manager_port":              {"system.json", "network.default_league_manager_port"},
	"network.referee_port_range":        {"system.json", "network.default_referee_port_range"},
	"network.player_port_range":         {"system.json", "network.default_player_port_range"},
	"network.advertise_url":             {"system.json", "network.advertise_url"},
	"network.tls_cert_file":             {"system.json", "network.tls_cert_file"},
	"timeouts.register_referee":         {"system.json", "timeouts.register_referee_timeout_sec"},
	"timeouts.register_player":          {"system.json", "timeouts.register_player_timeout_sec"},
	"timeouts.join_ack":                 {"system.json", "timeouts.game_join_ack_timeout_sec"},
	"timeouts.move":                     {"system.json", "timeouts.move_timeout_sec"},
	"timeouts.game_over":                {"system.json", "timeouts.game_over_timeout_sec"},
	"timeouts.report":                   {"system.json", "timeouts.match_result_report_timeout_sec"},
	"timeouts.query":                    {"system.json", "timeouts.league_query_timeout_sec"},
	"timeouts.generic":                  {"system.json", "timeouts.generic_response_timeout_sec"},
	"retry.attempts":                    {"system.json", "retry_policy.max_retries"},
	"retry.initial_delay":               {"system.json", "retry_policy.initial_delay_sec"},
	"retry.multiplier":                  {"system.json", "retry_policy.backoff_strategy"},
	"breaker.failures":                  {"system.json", "circuit_breaker.failure_threshold"},
	"breaker.reset":                     {"system.json", "circuit_breaker.reset_timeout_sec"},
	"security.token_bytes":              {"system.json", "security.token_length"},
	"security.token_ttl":                {"system.json", "security.token_ttl_hours"},
	"scoring.win":                       {"leagues/%s.json", "scoring.win_points"},
	"scoring.draw":                      {"leagues/%s.json", "scoring.draw_points"},
	"scoring.loss":                      {"leagues/%s.json", "scoring.loss_points"},
	"scoring.technical_loss":            {"leagues/%s.json", "scoring.technical_loss_points"},
	"participants.min_players":          {"leagues/%s.json", "participants.min_players"},
	"participants.max_players":          {"leagues/%s.json", "participants.max_players"},
	"participants.min_referees":         {"leagues/%s.json", "participants.min_referees"},
	"referee.max_concurrent_matches":    {"defaults/referee.json", "max_concurrent_matches"},
	"suspension.after_technical_losses": {"leagues/%s.json", "suspension.after_consecutive_technical_losses"},
	"suspension.referee_after_consecutive_missed_reports": {"leagues/%s.json",
		"suspension.referee_after_consecutive_missed_reports"},
}

// validateFolder is Validate for a configuration as its config folder
// left it, before the environment and the command line change it: the
// defaults are valid, so each problem is the folder's, and is said as a
// FileError naming the file and the key as written in it.
func (c Config) validateFolder() error {
	err := c.Validate()
	if err == nil || c.Dir == "" {
		return err
	}
	var named []error
	for _, problem := range unjoin(err) {
		named = append(named, c.inFile(problem.Error()))
	}
	return errors.Join(named...)
}

// inFile turns a problem Validate names by Config's setting names into
// one that names the file of the first setting it mentions, and every
// setting by its key in the folder.
func (c Config) inFile(problem string) error {
	first, at := -1, fileKey{}
	var pairs []string
	for name, fk := range settingFiles {
		if i := strings.Index(problem, name); i >= 0 {
			pairs = append(pairs, name, fk.key)
			if first < 0 || i < first {
				first, at = i, fk
			}
		}
	}
	if first < 0 {
		return errors.New(problem)
	}
	file := at.file
	if strings.Contains(file, "%s") {
		file = fmt.Sprintf(file, c.LeagueID)
	}
	text := strings.NewReplacer(pairs...).Replace(problem)
	key, rest, _ := strings.Cut(text, " ")
	if key != at.key {
		return &FileError{Path: filepath.Join(c.Dir, filepath.FromSlash(file)), Err: errors.New(text)}
	}
	return &FileError{Path: filepath.Join(c.Dir, filepath.FromSlash(file)), Field: key, Err: errors.New(rest)}
}

// unjoin lists the errors errors.Join put together.
func unjoin(err error) []error {
	if joined, ok := err.(interface{ Unwrap() []error }); ok {
		return joined.Unwrap()
	}
	return []error{err}
}
