// What a demo killed without its stop (kill -9, a closed terminal) leaves behind: its recorded
// process groups are ended on the next start, so that it does not face busy ports.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const CHILDREN_FILE = "children.json"

export function recordChildren(dataDir, children) {
  const running = children.filter((child) => child.running).map((child) => ({ pid: child.child.pid, command: child.command }))
  writeFileSync(join(dataDir, CHILDREN_FILE), JSON.stringify(running))
}

export function commandLineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim()
  } catch {
    return null
  }
}

export async function stopLeftoverChildren(dataDir) {
  const file = join(dataDir, CHILDREN_FILE)
  if (!existsSync(file)) return
  const recorded = JSON.parse(readFileSync(file, "utf8"))
  for (const { pid, command } of recorded) {
    // Only a process that is still the one recorded (same command line), never a reused pid.
    if (commandLineOf(pid) !== command) continue
    process.stdout.write(`  stopping a leftover of an earlier demo: pid ${pid}\n`)
    try {
      process.kill(-pid, "SIGKILL")
    } catch {
      // already gone
    }
    for (let waited = 0; commandLineOf(pid) === command && waited < 5000; waited += 100) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  writeFileSync(file, "[]")
}
