package cli

import (
	_ "embed"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpexec/mcpexec/pool"
)

// defaultServersJSON is the pool used when no --servers file is given: the
// built-in servers, in the same mcpServers format a user's file has. The
// placeholder command is replaced by this very binary.
//
//go:embed defaults/servers.json
var defaultServersJSON []byte

// defaultSettingsJSON is the settings used with the default pool when no
// --settings file is given: the built-in tools are allowed, except the
// destructive delete, which asks.
//
//go:embed defaults/settings.json
var defaultSettingsJSON []byte

// defaultServers returns the built-in servers as stdio subprocesses of exe.
func defaultServers(exe string) ([]pool.ServerConfig, error) {
	servers, err := pool.ParseConfig(defaultServersJSON)
	if err != nil {
		return nil, fmt.Errorf("embedded server list: %w", err)
	}
	for i := range servers {
		servers[i].Command = exe
	}
	return servers, nil
}

// loadServers reads an mcpServers file, or returns the built-in pool when
// file is empty.
func loadServers(file string) ([]pool.ServerConfig, error) {
	if file == "" {
		exe, err := os.Executable()
		if err != nil {
			return nil, fmt.Errorf("locating this binary for the built-in servers: %w", err)
		}
		return defaultServers(exe)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	return pool.ParseConfigFile(file, data) // its errors name the file
}

// writeDefaultSettings writes the default settings into dir and returns the
// file's path. Answers of "allow always" are persisted there, so they last
// as long as dir does.
func writeDefaultSettings(dir string) (string, error) {
	path := filepath.Join(dir, "settings.json")
	if err := os.WriteFile(path, defaultSettingsJSON, 0o600); err != nil {
		return "", err
	}
	return path, nil
}
