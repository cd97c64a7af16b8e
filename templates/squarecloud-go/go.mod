module ${PROJECT}

go 1.25.11

require (
	github.com/pulumi/pulumi/sdk/v3 v3.248.0
	github.com/squarecloud/pulumi-squarecloud/sdk/go v0.2.0
)
