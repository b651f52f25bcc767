module github.com/leaguetui/leaguetui

go 1.25

require (
	github.com/go-resty/resty/v2 v2.17.2
	github.com/google/uuid v1.6.0
	github.com/sony/gobreaker/v2 v2.4.0
)

require golang.org/x/net v0.43.0 // indirect
