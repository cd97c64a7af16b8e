// Command sdkgen writes a language SDK of the package from its schema (provider/plugin/schema.json),
// with the code generators of the Pulumi engine release the project pins. The language hosts that
// can be built here (sdk v3.68.0) cannot answer `pulumi package gen-sdk`, so the generators are
// called directly, as that command would call them.
//
// Usage: sdkgen <go|python> <schema.json> <output directory>
// The output directory is emptied first: every file in it is generated.
package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// The name the generated files give as their generator, in their "do not edit" header.
const tool = "pulumi-squarecloud (npm run gen)"

func main() {
	if len(os.Args) != 4 {
		fail(fmt.Errorf("usage: sdkgen <language> <schema.json> <output directory>"))
	}
	language, schemaPath, outDir := os.Args[1], os.Args[2], os.Args[3]
	generate, ok := generators[language]
	if !ok {
		fail(fmt.Errorf("unsupported language %q (supported: go, python)", language))
	}
	pkg, err := bind(schemaPath)
	if err != nil {
		fail(err)
	}
	files, err := generate(pkg)
	if err != nil {
		fail(fmt.Errorf("generating the %s SDK: %w", language, err))
	}
	if err := write(files, outDir); err != nil {
		fail(err)
	}
}

// generators maps a language to its code generator, called with what `pulumi package gen-sdk`
// would pass: no local dependencies, no extra files.
var generators = map[string]func(*schema.Package) (map[string][]byte, error){
	"go": func(pkg *schema.Package) (map[string][]byte, error) { return gogen.GeneratePackage(tool, pkg, nil) },
	"python": func(pkg *schema.Package) (map[string][]byte, error) {
		return python.GeneratePackage(tool, pkg, nil, nil)
	},
}

// bind reads and validates the schema. The package refers to no other package, so its loader
// finds none: a reference to one is an error.
func bind(schemaPath string) (*schema.Package, error) {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return nil, err
	}
	var spec schema.PackageSpec
	if err := json.Unmarshal(text, &spec); err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	pkg, diags, err := schema.BindSpec(spec, schema.NewNullLoader(), schema.ValidationOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", schemaPath, err)
	}
	if diags.HasErrors() {
		return nil, fmt.Errorf("%s: %s", schemaPath, diags.Error())
	}
	return pkg, nil
}

func write(files map[string][]byte, outDir string) error {
	if err := os.RemoveAll(outDir); err != nil {
		return err
	}
	for name, content := range files {
		target := filepath.Join(outDir, name)
		if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(target, content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "sdkgen:", err)
	os.Exit(1)
}
