package oidc

import (
	"strings"
	"testing"
	"time"
)

func TestJWTConfigValidate(t *testing.T) {
	valid := testConfig("https://idp.example.org/realms/casegraph/protocol/openid-connect/certs")
	with := func(edit func(c *JWTConfig)) JWTConfig {
		c := valid
		edit(&c)
		return c
	}
	tests := []struct {
		name string
		cfg  JWTConfig
		want string // "" for valid, else part of the error
	}{
		{"valid", valid, ""},
		{"JWKS file", with(func(c *JWTConfig) { c.JWKSURL, c.JWKSFile = "", "/etc/casegraph/jwks.json" }), ""},
		{"http on loopback", with(func(c *JWTConfig) { c.JWKSURL = "http://127.0.0.1:8180/certs" }), ""},
		{"http on localhost", with(func(c *JWTConfig) { c.JWKSURL = "http://localhost:8180/certs" }), ""},
		{"chosen algorithms", with(func(c *JWTConfig) { c.Algorithms = []string{"RS512", "ES384"} }), ""},
		{"no issuer", with(func(c *JWTConfig) { c.Issuer = "" }), "issuer is required"},
		{"no audience", with(func(c *JWTConfig) { c.Audience = " " }), "audience is required"},
		{"no JWKS", with(func(c *JWTConfig) { c.JWKSURL = "" }), "JWKS URL or a JWKS file is required"},
		{"both JWKS", with(func(c *JWTConfig) { c.JWKSFile = "/etc/jwks.json" }), "not both"},
		{"http elsewhere", with(func(c *JWTConfig) { c.JWKSURL = "http://idp.example.org/certs" }), "want https"},
		{"relative URL", with(func(c *JWTConfig) { c.JWKSURL = "/certs" }), "not an absolute URL"},
		{"ftp", with(func(c *JWTConfig) { c.JWKSURL = "ftp://idp.example.org/certs" }), "want an https URL"},
		{"HS256", with(func(c *JWTConfig) { c.Algorithms = []string{"RS256", "HS256"} }), `"HS256"`},
		{"none", with(func(c *JWTConfig) { c.Algorithms = []string{"none"} }), `"none"`},
		{"skew too large", with(func(c *JWTConfig) { c.ClockSkew = time.Hour }), "clock skew"},
		{"negative skew", with(func(c *JWTConfig) { c.ClockSkew = -time.Second }), "clock skew"},
		{"negative interval", with(func(c *JWTConfig) { c.MinRefreshInterval = -time.Second }), "negative"},
		{"same claim twice", with(func(c *JWTConfig) { c.DatasetsClaim = DefaultRoleClaim }), "three different claims"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Validate() = %v, want nil", err)
			case tc.want != "" && err == nil:
				t.Errorf("Validate() = nil, want an error mentioning %q", tc.want)
			case tc.want != "" && !strings.Contains(err.Error(), tc.want):
				t.Errorf("Validate() = %v, want it to mention %q", err, tc.want)
			}
		})
	}
}

func TestJWTConfigDefaults(t *testing.T) {
	c := testConfig("https://idp.example.org/certs").withDefaults()
	if c.RoleClaim != "casegraph_role" || c.DatasetsClaim != "casegraph_datasets" || c.ClearanceClaim != "casegraph_clearance" {
		t.Errorf("claims = %q %q %q", c.RoleClaim, c.DatasetsClaim, c.ClearanceClaim)
	}
	if c.ClockSkew != time.Minute {
		t.Errorf("clock skew = %s, want 1m", c.ClockSkew)
	}
	if got := strings.Join(c.Algorithms, " "); got != "RS256 ES256 PS256 EdDSA" {
		t.Errorf("algorithms = %s", got)
	}
}
