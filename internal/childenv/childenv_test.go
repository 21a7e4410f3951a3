package childenv

import (
	"slices"
	"testing"
)

func TestWithoutDropsOnlyTheWithheldVariables(t *testing.T) {
	env := []string{"PATH=/bin", Token + "=s3cret", "OTEL_EXPORTER_OTLP_HEADERS=api-key=k", "HOME=/home/me", "MCPEXEC_TOKENX=kept"}
	got := Without(env)
	want := []string{"PATH=/bin", "HOME=/home/me", "MCPEXEC_TOKENX=kept"}
	if !slices.Equal(got, want) {
		t.Fatalf("Without = %q, want %q", got, want)
	}
}

func TestSecretsAreTheWithheldValuesSet(t *testing.T) {
	t.Setenv(Token, "s3cret")
	t.Setenv("OTEL_EXPORTER_OTLP_HEADERS", "")
	if got := Secrets(); !slices.Equal(got, []string{"s3cret"}) {
		t.Fatalf("Secrets = %q", got)
	}
}
