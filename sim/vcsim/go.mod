module hostlint.local/sim/vcsim

go 1.24

require (
	github.com/vmware/govmomi v0.52.0
	gopkg.in/yaml.v3 v3.0.1
)

require github.com/google/uuid v1.6.0 // indirect
