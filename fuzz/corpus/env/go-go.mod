module example.com/errata-fixture

go 1.22

toolchain go1.22.5

require (
	github.com/google/uuid v1.6.0
	github.com/spf13/cobra v1.8.1
	golang.org/x/sync v0.7.0 // indirect
)

require (
	github.com/inconshreveable/mousetrap v1.1.0 // indirect
	github.com/spf13/pflag v1.0.5 // indirect
)

require gopkg.in/yaml.v3 v3.0.1

replace github.com/spf13/pflag => github.com/spf13/pflag v1.0.6

exclude golang.org/x/sync v0.6.0
