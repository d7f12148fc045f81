# frozen_string_literal: true

require "net/http"
require "timeout"

# A child-process file server (file_server.rb) for the loader's tests.
class FileServer
  attr_reader :port, :root

  def initialize(root)
    @root = root
    @io = IO.popen([RbConfig.ruby, File.join(__dir__, "file_server.rb"), root], "r+")
    @port = Timeout.timeout(10) { Integer(@io.gets) }
  end

  def url(name)
    "http://127.0.0.1:#{@port}/#{name}"
  end

  # Requests for files so far.
  def count
    Integer(Net::HTTP.get(URI(url("__count"))))
  end

  def stop
    @io.close_write
    Process.wait(@io.pid)
    @io.close
  rescue IOError, Errno::ECHILD
    nil
  end
end
