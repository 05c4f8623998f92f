// Child processes of the demo: each in its own process group (Medusa's server forks workers, so
// stopping the parent alone would leave a child holding the port), output kept in a log file.
import { spawn } from "node:child_process"
import { createWriteStream, readFileSync } from "node:fs"
import { createServer } from "node:net"
import listenPort from "./listen-port.cjs"

const { freeListenPort } = listenPort

/** The last lines of a log file's latest run, for an error message (stack frames left out). */
export function tailOf(file, lines = 30) {
  try {
    const text = readFileSync(file, "utf8")
    const latestRun = text.slice(text.lastIndexOf("\n--- ") + 1)
    return latestRun
      .replace(/\x1b\[[0-9;]*m/g, "")
      .trimEnd()
      .split("\n")
      .filter((line) => !/^\s+(\d+: |at )/.test(line))
      .slice(-lines)
      .join("\n")
  } catch {
    return ""
  }
}

/**
 * Starts `command args` detached (own process group), appending stdout and stderr to `logFile`
 * (and to the terminal when `echo`). Returns a handle whose `stop()` ends the whole group.
 */
export function startProcess({ name, command, args, cwd, env, logFile, echo = false }) {
  const log = createWriteStream(logFile, { flags: "a" })
  log.write(`\n--- ${new Date().toISOString()} ${command} ${args.join(" ")}\n`)
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] })
  const listeners = new Set()
  let output = ""
  const onData = (chunk) => {
    const text = chunk.toString("utf8")
    log.write(text)
    if (echo) process.stdout.write(text)
    output = (output + text).slice(-20000)
    for (const listener of listeners) listener(output)
  }
  child.stdout.on("data", onData)
  child.stderr.on("data", onData)
  const exited = new Promise((resolve) => {
    child.once("exit", (code, signal) => {
      log.end()
      resolve({ code, signal })
    })
  })
  let running = true
  exited.then(() => (running = false))
  return {
    name,
    child,
    /** The command line as /proc shows it, to recognise this process later. */
    command: [command, ...args].join(" "),
    exited,
    get running() {
      return running
    },
    /** The latest output (up to 20 000 characters). */
    get output() {
      return output
    },
    /** Resolves with the first match of `pattern` in the output; rejects when the process exits first or on timeout. */
    waitForOutput(pattern, timeoutMs) {
      return new Promise((resolve, reject) => {
        const check = (text) => {
          const match = pattern.exec(text)
          if (match) {
            finish()
            resolve(match)
          }
        }
        const timer = setTimeout(() => {
          finish()
          reject(new Error(`${name} did not get ready within ${Math.round(timeoutMs / 1000)} s (log: ${logFile})\n${tailOf(logFile)}`))
        }, timeoutMs)
        const finish = () => {
          clearTimeout(timer)
          listeners.delete(check)
        }
        exited.then(({ code, signal }) => {
          if (listeners.has(check)) {
            finish()
            reject(new Error(`${name} exited (${signal ?? `code ${code}`}) before it was ready (log: ${logFile})\n${tailOf(logFile)}`))
          }
        })
        listeners.add(check)
        check(output)
      })
    },
    /** SIGTERM to the whole group, SIGKILL after `graceMs`; resolves once the leader has exited. */
    async stop(graceMs = 8000) {
      if (!running) return
      signalGroup(child.pid, "SIGTERM")
      const timer = setTimeout(() => signalGroup(child.pid, "SIGKILL"), graceMs)
      await exited
      clearTimeout(timer)
      // Workers forked by the leader may outlive it by a moment.
      signalGroup(child.pid, "SIGKILL")
    },
    /** Synchronous last resort (process 'exit' handler). */
    kill() {
      signalGroup(child.pid, "SIGKILL")
    },
  }
}

function signalGroup(pid, signal) {
  try {
    process.kill(-pid, signal)
  } catch {
    // group already gone
  }
}

/** Rejects with a clear message when `port` cannot be listened on. Port 0: any free port (below the ephemeral range). */
export async function claimPort(port, what, envName) {
  // Any free port: one below the ephemeral range, which stays free while the process boots (listen-port.cjs).
  if (Number(port) === 0) return freeListenPort()
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", (error) => {
      reject(
        new Error(
          error.code === "EADDRINUSE"
            ? `Port ${port} (${what}) is already in use. Stop what uses it, or choose another port: ${envName}=<port> npm run demo`
            : `Port ${port} (${what}): ${error.message}`
        )
      )
    })
    server.listen(port, () => {
      const chosen = server.address().port
      server.close(() => resolve(chosen))
    })
  })
}

/** Polls `url` until it answers 2xx. */
export async function waitForHttp(url, { timeoutMs, intervalMs = 500, abortedBy } = {}) {
  const deadline = Date.now() + timeoutMs
  let lastError = ""
  for (;;) {
    try {
      const response = await fetch(url, { signal: AbortSignal.timeout(5000) })
      if (response.ok) return
      lastError = `HTTP ${response.status}`
    } catch (error) {
      lastError = error.cause?.code ?? error.message
    }
    if (abortedBy && !abortedBy.running) throw new Error(`${abortedBy.name} exited`)
    if (Date.now() > deadline) throw new Error(`${url} did not answer within ${Math.round(timeoutMs / 1000)} s (${lastError})`)
    await new Promise((resolve) => setTimeout(resolve, intervalMs))
  }
}
