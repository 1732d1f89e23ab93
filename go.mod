module herald

go 1.26.0

require (
	github.com/emersion/go-imap/v2 v2.0.0-beta.8
	github.com/emersion/go-message v0.18.2
	github.com/emersion/go-sasl v0.0.0-20241020182733-b788ff22d5a6
	github.com/emersion/go-smtp v0.25.1
	github.com/wneessen/go-mail v0.8.1
	go.etcd.io/bbolt v1.4.3
	golang.org/x/image v0.47.0
	golang.org/x/net v0.62.0
	gopkg.in/yaml.v3 v3.0.1
)

require (
	golang.org/x/crypto v0.58.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
	golang.org/x/text v0.43.0 // indirect
)
