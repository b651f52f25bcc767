module leaguetui-starter

go 1.22
