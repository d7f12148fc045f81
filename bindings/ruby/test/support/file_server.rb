# frozen_string_literal: true

# A small HTTP server for the loader's tests, run as a child process:
#
#   ruby test/support/file_server.rb ROOT
#
# Serves the files of ROOT (WEBrick's FileHandler: ETag, Last-Modified, 304)
# on an ephemeral port of 127.0.0.1, prints the port on its first line, and
# answers GET /__count with the number of requests for files so far.
# Standard input closing stops it.
require "webrick"

root = ARGV.fetch(0)
count = 0
server = WEBrick::HTTPServer.new(BindAddress: "127.0.0.1", Port: 0, Logger: WEBrick::Log.new(File::NULL),
                                 AccessLog: [], DocumentRoot: root)
server.mount_proc("/__count") { |_req, res| res.body = count.to_s }
server.config[:RequestCallback] = ->(req, _res) { count += 1 unless req.path == "/__count" }
$stdout.puts server.config[:Port]
$stdout.flush
Thread.new do
  $stdin.read
  server.shutdown
end
server.start
