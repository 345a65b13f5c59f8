import Foundation
import TesseraTestSupport

#if canImport(Glibc)
  import Glibc
#endif

/// nginx (Debian's) as a caching reverse proxy in front of an origin, run as this test's own
/// child: one process (`master_process off`), everything it writes — configuration, logs,
/// cache, temporary bodies, pid — in a temporary folder, listening on a free loopback port.
/// `stop()` ends it and waits for it, and `deinit` does so too, pass or fail.
final class CachingProxy {
  struct Failure: Error, CustomStringConvertible {
    let description: String
  }

  /// One access-log line: the cache's verdict (`MISS`, `HIT`, `REVALIDATED`, `-` when the
  /// cache took no part), the status nginx answered, and the request target.
  struct Access: Equatable {
    let cacheStatus: String
    let status: Int
    let target: String
  }

  let folder = TemporaryFolder.Owned(prefix: "tessera-nginx")
  let port: Int
  private var pid: pid_t = 0

  var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

  init(origin: URL) async throws {
    guard let (descriptor, port) = LoopbackSocket.listen() else {
      throw Failure(description: "no free loopback port")
    }
    // Closed just before nginx binds it; start() says so if another process took it since.
    close(descriptor)
    self.port = port
    guard let originPort = origin.port else {
      throw Failure(description: "the origin \(origin) names no port")
    }
    let configuration = folder.url.appendingPathComponent("nginx.conf")
    try Self.configuration(folder: folder.url.path, port: port, originPort: originPort)
      .write(to: configuration, atomically: true, encoding: .utf8)
    pid = try Self.spawn([
      "nginx", "-p", folder.url.path, "-c", configuration.path, "-e",
      folder.url.appendingPathComponent("error.log").path,
    ])
    do {
      try await waitUntilServing()
    } catch {
      stop()
      throw error
    }
  }

  deinit { stop() }

  /// SIGTERM (nginx's fast shutdown), then SIGKILL if it is still there after 5 s; reaped
  /// either way. Idempotent.
  func stop() {
    guard pid > 0 else { return }
    defer { pid = 0 }
    kill(pid, SIGTERM)
    let deadline = ContinuousClock.now + .seconds(5)
    var status: Int32 = 0
    while ContinuousClock.now < deadline {
      let reaped = waitpid(pid, &status, WNOHANG)
      if reaped == pid || (reaped < 0 && errno != EINTR) { return }
      Thread.sleep(forTimeInterval: 0.02)
    }
    kill(pid, SIGKILL)
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
  }

  /// The access log so far, oldest first.
  func accesses() throws -> [Access] {
    let text = try String(
      contentsOf: folder.url.appendingPathComponent("access.log"), encoding: .utf8)
    return text.split(separator: "\n").compactMap { line in
      let fields = line.split(separator: " ", maxSplits: 2)
      guard fields.count == 3, let status = Int(fields[1]) else { return nil }
      return Access(cacheStatus: String(fields[0]), status: status, target: String(fields[2]))
    }
  }

  var errorLog: String {
    (try? String(contentsOf: folder.url.appendingPathComponent("error.log"), encoding: .utf8))
      ?? ""
  }

  /// Polls nginx's own readiness location (answered by nginx alone: a loaded origin, as in
  /// CI's parallel run, must not make nginx look dead) until it answers; fails at once if
  /// nginx exited.
  private func waitUntilServing() async throws {
    let ready = baseURL.appendingPathComponent("tessera-proxy-ready")
    let deadline = ContinuousClock.now + .seconds(60)
    while ContinuousClock.now < deadline {
      var status: Int32 = 0
      if waitpid(pid, &status, WNOHANG) == pid {
        pid = 0
        throw Failure(description: "nginx exited (status \(status)):\n\(errorLog)")
      }
      if let answer = try? await TestHTTP.get(ready, timeout: 5), answer.status == 204 {
        return
      }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw Failure(description: "nginx did not answer within 60 s:\n\(errorLog)")
  }

  /// What README's "Behind a cache or proxy" recommends, with every path in `folder`. The
  /// cache keeps what the origin's Cache-Control allows; `proxy_cache_revalidate` asks the
  /// origin with its validators when an entry goes stale.
  static func configuration(folder: String, port: Int, originPort: Int) -> String {
    """
    daemon off;
    master_process off;
    worker_processes 1;
    pid \(folder)/nginx.pid;
    error_log \(folder)/error.log warn;
    events { worker_connections 256; }
    http {
      log_format cache '$upstream_cache_status $status $request_uri';
      access_log \(folder)/access.log cache;
      client_body_temp_path \(folder)/client-body;
      proxy_temp_path \(folder)/proxy-temp;
      fastcgi_temp_path \(folder)/fastcgi-temp;
      uwsgi_temp_path \(folder)/uwsgi-temp;
      scgi_temp_path \(folder)/scgi-temp;
      proxy_cache_path \(folder)/cache levels=1:2 keys_zone=tessera:10m max_size=1g
                       inactive=1h use_temp_path=off;
      server {
        listen 127.0.0.1:\(port);
        location = /tessera-proxy-ready { return 204; }
        location / {
          proxy_pass http://127.0.0.1:\(originPort);
          proxy_http_version 1.1;
          proxy_set_header Host $http_host;
          proxy_set_header X-Forwarded-Proto $scheme;
          proxy_set_header X-Forwarded-Host $http_host;
          proxy_set_header X-Forwarded-Port $server_port;
          proxy_cache tessera;
          proxy_cache_revalidate on;
          proxy_cache_lock on;
          add_header X-Cache-Status $upstream_cache_status always;
        }
      }
    }

    """
  }

  /// Starts `arguments` with stdin, stdout and stderr on /dev/null and default signal
  /// handling (`Spawn.resetSignals`), without waiting for it.
  private static func spawn(_ arguments: [String]) throws -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    Spawn.resetSignals(&attributes)
    var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned = posix_spawnp(&pid, arguments[0], &actions, &attributes, &argv, environ)
    guard spawned == 0 else {
      throw Failure(
        description: "cannot run \(arguments[0]) (error \(spawned)); is nginx installed?")
    }
    return pid
  }
}
