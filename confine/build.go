package confine

// buildLocked builds what is missing or stale, up to a restricted spawner, unless
// the network rules are still being built (it returns them to wait for).
func (c *Confiner) buildLocked() (wait *netBuild, err error) {
	nb := c.netLocked()
	if nb != nil {
		select {
		case <-nb.done:
		default:
			return nb, nil
		}
		if nb.err != nil {
			return nil, nb.err
		}
	}
	if c.paths == nil || c.paths.stale() {
		c.dropPathsLocked()
		l, err := buildPaths(c.plan, c.abi)
		if err != nil {
			return nil, err
		}
		c.paths = l
	}
	if c.current == nil || c.current.paths != c.paths || c.current.net != nb {
		c.retireLocked()
		c.hidden.Do(c.hideProcess)
		sp, err := newSpawner(c.paths, nb)
		if err != nil {
			return nil, err
		}
		c.current = sp
	}
	return nil, nil
}

// netLocked is the network rules' build for the policy's ports, started if needed;
// nil when there are no network rules.
func (c *Confiner) netLocked() *netBuild {
	if c.abi < 4 || c.mode == Paths || len(c.policy.Ports) == 0 {
		return nil
	}
	if c.net == nil {
		nb := &netBuild{fd: -1, done: make(chan struct{})}
		c.net = nb
		ports := c.policy.Ports
		c.builds.Go(func() {
			fd, err := buildNet(ports)
			c.mu.Lock()
			defer c.mu.Unlock()
			nb.err = err
			if c.net == nb {
				nb.fd = fd
			} else if fd >= 0 {
				closeFD(fd) // replaced while it was being built
			}
			close(nb.done)
		})
	}
	return c.net
}

func (c *Confiner) dropPathsLocked() {
	if c.paths != nil {
		closeFD(c.paths.fd)
		c.paths = nil
	}
}

func (c *Confiner) dropNetLocked() {
	if c.net == nil {
		return
	}
	select {
	case <-c.net.done:
		if c.net.fd >= 0 {
			closeFD(c.net.fd)
		}
	default: // its build closes it
	}
	c.net = nil
}
