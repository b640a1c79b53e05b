package casegraph_test

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
)

// No Docker engine runs where the tests run, so the compose file and the
// Dockerfile are checked by reading them: the images, ports, environment
// and start order a `docker compose up` relies on.

type composeFile struct {
	Services map[string]struct {
		Image       string            `yaml:"image"`
		Build       any               `yaml:"build"`
		Command     []string          `yaml:"command"`
		Environment map[string]string `yaml:"environment"`
		Ports       []string          `yaml:"ports"`
		Healthcheck *struct {
			Test []string `yaml:"test"`
		} `yaml:"healthcheck"`
		DependsOn map[string]struct {
			Condition string `yaml:"condition"`
		} `yaml:"depends_on"`
	} `yaml:"services"`
}

func TestDockerCompose(t *testing.T) {
	b, err := os.ReadFile("docker-compose.yml")
	if err != nil {
		t.Fatal(err)
	}
	var c composeFile
	if err := yaml.Unmarshal(b, &c); err != nil {
		t.Fatalf("docker-compose.yml: %v", err)
	}

	neo, ok := c.Services["neo4j"]
	if !ok {
		t.Fatal("no neo4j service")
	}
	if neo.Image != "neo4j:5.26-community" {
		t.Errorf("neo4j image = %q, want neo4j:5.26-community", neo.Image)
	}
	if neo.Healthcheck == nil || len(neo.Healthcheck.Test) == 0 {
		t.Error("neo4j has no health check")
	}
	if !hasPort(neo.Ports, "7687") {
		t.Errorf("neo4j ports %v do not publish Bolt (7687)", neo.Ports)
	}
	if !strings.HasPrefix(neo.Environment["NEO4J_AUTH"], "neo4j/") {
		t.Errorf("neo4j NEO4J_AUTH = %q, want neo4j/<password>", neo.Environment["NEO4J_AUTH"])
	}

	// The settings that keep plans by parameter types alone and spare
	// the driver a timer a message (neo4j.conf says why) are the compose
	// file's Neo4j's too, by the image's naming of settings in the
	// environment.
	conf, err := os.ReadFile("neo4j-local/neo4j.conf")
	if err != nil {
		t.Fatal(err)
	}
	for setting, value := range map[string]string{
		"internal.cypher.use_parameter_size":             "false",
		"server.bolt.connection_keep_alive_for_requests": "STREAMING",
	} {
		if !strings.Contains(string(conf), "\n"+setting+"="+value+"\n") {
			t.Errorf("neo4j-local/neo4j.conf does not set %s=%s", setting, value)
		}
		if v := neo.Environment[dockerSetting(setting)]; v != value {
			t.Errorf("neo4j %s = %q, want %s (as neo4j-local/neo4j.conf)", dockerSetting(setting), v, value)
		}
	}

	for _, name := range []string{"migrate", "seed", "casegraph"} {
		svc, ok := c.Services[name]
		if !ok {
			t.Errorf("no %s service", name)
			continue
		}
		if svc.Build == nil {
			t.Errorf("%s is not built from the Dockerfile", name)
		}
		if len(svc.Command) == 0 || svc.Command[0] != name && !(name == "casegraph" && svc.Command[0] == "serve") {
			t.Errorf("%s command = %v", name, svc.Command)
		}
		for key, want := range map[string]string{
			"NEO4J_URI": "bolt://neo4j:7687", "NEO4J_USER": "neo4j", "NEO4J_DATABASE": "neo4j",
		} {
			if got := svc.Environment[key]; got != want {
				t.Errorf("%s %s = %q, want %q", name, key, got, want)
			}
		}
		if svc.Environment["NEO4J_PASSWORD"] == "" {
			t.Errorf("%s has no NEO4J_PASSWORD", name)
		}
	}

	api := c.Services["casegraph"]
	if api.DependsOn["neo4j"].Condition != "service_healthy" {
		t.Errorf("casegraph depends_on neo4j = %+v, want condition service_healthy", api.DependsOn["neo4j"])
	}
	if c.Services["migrate"].DependsOn["neo4j"].Condition != "service_healthy" {
		t.Error("migrate does not wait for a healthy neo4j")
	}
	if api.Environment["CASEGRAPH_ADDR"] != "0.0.0.0:8080" || !hasPort(api.Ports, "8080") {
		t.Errorf("casegraph listens on %q and publishes %v, want 0.0.0.0:8080 published", api.Environment["CASEGRAPH_ADDR"], api.Ports)
	}
}

func hasPort(ports []string, port string) bool {
	for _, p := range ports {
		if strings.HasSuffix(p, ":"+port) || p == port {
			return true
		}
	}
	return false
}

func TestDockerfileIsMultiStageAndNonRoot(t *testing.T) {
	b, err := os.ReadFile("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	froms := regexp.MustCompile(`(?m)^FROM\s`).FindAllString(text, -1)
	if len(froms) < 2 {
		t.Errorf("Dockerfile has %d stages, want a build stage and a runtime stage", len(froms))
	}
	users := regexp.MustCompile(`(?m)^USER\s+(\S+)`).FindAllStringSubmatch(text, -1)
	if len(users) == 0 {
		t.Fatal("Dockerfile sets no USER: the service would run as root")
	}
	if last := users[len(users)-1][1]; strings.HasPrefix(last, "root") || strings.HasPrefix(last, "0") {
		t.Errorf("Dockerfile runs as %q", last)
	}
	if !strings.Contains(text, "COPY --from=build") {
		t.Error("the runtime stage does not copy the binary from the build stage")
	}
}

// dockerSetting is the environment variable the Neo4j image reads a
// setting from: NEO4J_, then the name with each underscore doubled and
// each dot made an underscore.
func dockerSetting(name string) string {
	return "NEO4J_" + strings.ReplaceAll(strings.ReplaceAll(name, "_", "__"), ".", "_")
}
