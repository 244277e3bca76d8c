package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"

	"github.com/wispapp/wisp/app/api"
	"github.com/wispapp/wisp/app/approval"
	"github.com/wispapp/wisp/app/config"
	"github.com/wispapp/wisp/app/mcptool"
	"github.com/wispapp/wisp/app/settings"
	"github.com/wispapp/wisp/app/wire"
	"github.com/wispapp/wisp/internal/fault"
	"github.com/wispapp/wisp/internal/jsonlist"
	"github.com/wispapp/wisp/mcp"
)

// mcpGroup is the registry group of the MCP servers' tools.
const mcpGroup = "mcp"

// newMCP builds the MCP servers' manager: their tools become the agent's actions
// (app/mcptool, behind approvals) and every change of a server is sent to /ws as
// mcp-servers. Nothing starts until Apply.
func (a *App) newMCP(approvals *approval.Service) *mcp.Manager {
	var m *mcp.Manager
	// Servers change from their own goroutines: one change at a time reads the tools
	// and offers them, so an older read never replaces a newer one (a server's tools
	// offered, then taken back by a change that read the list before they came).
	var changing sync.Mutex
	m = mcp.New(mcp.Options{
		Logger: a.log.With("component", "mcp"), Strip: secretEnv(), PATH: a.mcpPATH(), Confine: a.confiner.Start,
		OnChange: func() {
			changing.Lock()
			defer changing.Unlock()
			a.mcpChanged(m, approvals)
		}, Version: a.opts.Version,
	})
	return m
}

// mcpChanged offers the tools of the servers running now and tells the clients.
func (a *App) mcpChanged(m *mcp.Manager, approvals *approval.Service) {
	actions := mcptool.Actions(m.Tools(), mcptool.Options{Caller: m, Approvals: approvals})
	if err := a.actions.SetGroup(mcpGroup, actions); err != nil {
		a.log.Warn("some MCP tools are not offered", "err", err)
	}
	a.events.Publish(wire.NewMCPServers(mcpServers(m)))
}

func mcpServers(m *mcp.Manager) []wire.MCPServer {
	list := m.Servers()
	out := make([]wire.MCPServer, len(list))
	for i, st := range list {
		out[i] = wireMCPServer(st)
	}
	return out
}

// mcpOwner owns mcpServers: a change applies at once (servers start, stop and
// restart); a server that could never start is refused.
type mcpOwner struct{ m *mcp.Manager }

func (mcpOwner) VerifyConfig(_, to config.Config) error {
	var errs []error
	for name, s := range to.MCPServers {
		errs = append(errs, specOf(s).Check(name))
	}
	return errors.Join(errs...)
}

func (o mcpOwner) CommitConfig(_, to config.Config) bool {
	o.m.Apply(specsOf(to.MCPServers))
	return true
}

func specsOf(servers map[string]config.MCPServer) map[string]mcp.Spec {
	out := make(map[string]mcp.Spec, len(servers))
	for name, s := range servers {
		out[name] = specOf(s)
	}
	return out
}

func specOf(s config.MCPServer) mcp.Spec {
	return mcp.Spec{Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers, Disabled: s.Disabled}
}

// mcpAPI serves /api/mcp/servers: the manager's servers, declared in the settings.
type mcpAPI struct {
	mcp      *mcp.Manager
	settings *settings.Settings
}

var _ api.MCP = mcpAPI{}

func (m mcpAPI) Servers(context.Context) []wire.MCPServer { return mcpServers(m.mcp) }

func (m mcpAPI) Restart(_ context.Context, name string) (wire.MCPServer, error) {
	st, err := m.mcp.Restart(name)
	if errors.Is(err, mcp.ErrUnknown) {
		return wire.MCPServer{}, fault.NotFound.Errorf("no MCP server %q", name)
	}
	if err != nil {
		return wire.MCPServer{}, err
	}
	return wireMCPServer(st), nil
}

func (m mcpAPI) Save(ctx context.Context, name string, e api.MCPEdit) (wire.MCPServer, bool, error) {
	if err := mcp.CheckName(name); err != nil {
		return wire.MCPServer{}, false, fault.Invalid.Errorf("%v", err)
	}
	created := false
	err := m.settings.Change(ctx, func(f *config.File) error {
		old, ok := f.Config.MCPServers[name]
		created = !ok
		next, err := edited(old, e)
		if err != nil {
			return err
		}
		if err := specOf(next).Check(name); err != nil {
			return err
		}
		servers := maps.Clone(f.Config.MCPServers)
		if servers == nil {
			servers = map[string]config.MCPServer{}
		}
		servers[name] = next
		f.Config.MCPServers = servers
		return nil
	})
	if err != nil {
		return wire.MCPServer{}, false, err
	}
	st, ok := m.mcp.Server(name)
	if !ok {
		// Removed by another client between the save and this read.
		return wire.MCPServer{}, false, fault.Conflict.Errorf("MCP server %s was removed while it was being saved", name)
	}
	return wireMCPServer(st), created, nil
}

func (m mcpAPI) Remove(ctx context.Context, name string) error {
	return m.settings.Change(ctx, func(f *config.File) error {
		if _, ok := f.Config.MCPServers[name]; !ok {
			return fault.NotFound.Errorf("no MCP server %q", name)
		}
		servers := maps.Clone(f.Config.MCPServers)
		delete(servers, name)
		f.Config.MCPServers = servers
		return nil
	})
}

// edited is old changed as e says: a null env or header value keeps old's.
func edited(old config.MCPServer, e api.MCPEdit) (config.MCPServer, error) {
	env, err := keep("env", old.Env, e.Env)
	if err != nil {
		return config.MCPServer{}, err
	}
	headers, err := keep("header", old.Headers, e.Headers)
	if err != nil {
		return config.MCPServer{}, err
	}
	return config.MCPServer{Command: e.Command, Args: e.Args, Env: env, Cwd: e.Cwd, URL: e.URL, Headers: headers, Disabled: e.Disabled}, nil
}

func keep(what string, old map[string]string, in map[string]*string) (map[string]string, error) {
	if len(in) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(in))
	for k, v := range in {
		if v != nil {
			out[k] = *v
			continue
		}
		was, ok := old[k]
		if !ok {
			return nil, fmt.Errorf("%s %s has no value to keep: give one", what, k)
		}
		out[k] = was
	}
	return out, nil
}

func wireMCPServer(st mcp.Status) wire.MCPServer {
	s := st.Spec
	out := wire.MCPServer{
		Name: st.Name, Status: wire.MCPServerStatus(st.State), LastError: st.LastError, Stderr: jsonlist.NonNil(st.Stderr), Restarts: st.Restarts,
		Since: wire.ISOTime(st.Since), Tools: make([]wire.MCPTool, len(st.Tools)),
		Config: wire.MCPServerConfig{Transport: wire.MCPTransport(s.Transport()), Command: s.Command, Args: jsonlist.NonNil(s.Args), Cwd: s.Cwd,
			URL: s.URL, EnvKeys: sortedKeys(s.Env), HeaderKeys: sortedKeys(s.Headers), Disabled: s.Disabled},
	}
	if st.State == mcp.Failed && !st.RetryAt.IsZero() {
		at := wire.ISOTime(st.RetryAt)
		out.RetryAt = &at
	}
	for i, t := range st.Tools {
		out.Tools[i] = wire.MCPTool{Name: t.Name, Action: t.Action, Title: t.Title, Description: t.Description,
			InputSchema: t.InputSchema, Annotations: mcptool.Annotations(t)}
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range maps.Keys(m) {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
