# frozen_string_literal: true

require_relative "test_helper"
require "pathconfig/rack"
require "rack"
require "rack/handler/webrick"
require "net/http"

# Pathconfig::Rack::Server in a real server: WEBrick on an ephemeral port of
# localhost, asked with Net::HTTP.
class RackServerTest < Minitest::Test
  def setup
    @dir = Dir.mktmpdir
    @ios = File.join(@dir, "ios_v1.json")
    File.write(@ios, File.read(EXAMPLE))
  end

  def teardown
    @server&.shutdown
    @thread&.join(5)
    FileUtils.rm_rf(@dir)
  end

  def serve(app)
    started = Queue.new
    @thread = Thread.new do
      Rack::Handler::WEBrick.run(app, Host: "127.0.0.1", Port: 0, Logger: WEBrick::Log.new(File::NULL),
                                      AccessLog: []) { |server| started << server }
    end
    @server = started.pop
    @http = Net::HTTP.start("127.0.0.1", @server.config[:Port])
  end

  def get(path, headers = {})
    @http.request(Net::HTTP::Get.new(path, headers))
  end

  def test_serves_each_platform_with_a_strong_etag_and_304
    android = { "rules" => [{ "patterns" => ["/new$"], "properties" => { "context" => "modal", "presentation" => "push" } }] }
    serve(Pathconfig::Rack::Server.new(
            "/configurations/ios_v1.json" => { file: @ios, apps: %w[hotwire-ios turbo-ios] },
            "/configurations/android_v1.json" => { data: android, apps: %w[hotwire-android@1.2.2] }
          ))
    ios = get("/configurations/ios_v1.json")
    assert_equal "200", ios.code
    assert_equal File.read(EXAMPLE), ios.body
    assert_equal "application/json", ios["content-type"]
    assert_match(/\A"[0-9a-f]{64}"\z/, ios["etag"])
    not_modified = get("/configurations/ios_v1.json", "If-None-Match" => ios["etag"])
    assert_equal "304", not_modified.code
    assert_nil not_modified.body
    assert_equal ios["etag"], not_modified["etag"]
    assert_equal "304", get("/configurations/ios_v1.json", "If-None-Match" => %(W/"x", W/#{ios['etag']})).code
    assert_equal "304", get("/configurations/ios_v1.json", "If-None-Match" => "*").code
    assert_equal "200", get("/configurations/ios_v1.json", "If-None-Match" => '"other"').code
    served = get("/configurations/android_v1.json")
    assert_equal JSON.generate(android), served.body
    refute_equal ios["etag"], served["etag"]
    config = Pathconfig::PathConfiguration.from_json(served.body, profile: "hotwire-android")
    assert_equal "push", config.properties("/a/new").presentation
    head = @http.request(Net::HTTP::Head.new("/configurations/ios_v1.json"))
    assert_equal ["200", ios["etag"]], [head.code, head["etag"]]
    assert_equal "404", get("/configurations/ios_v2.json").code
    assert_equal "405", @http.request(Net::HTTP::Post.new("/configurations/ios_v1.json", "Content-Type" => "text/plain"), "").code
  end

  def test_as_middleware_it_passes_other_paths_on
    app = ->(_env) { [200, { "content-type" => "text/plain" }, ["the app"]] }
    serve(Pathconfig::Rack::Server.new({ "/path_configuration.json" => @ios }, app: app))
    assert_equal "the app", get("/posts").body
    assert_equal "200", get("/path_configuration.json").code
  end

  def test_a_configuration_an_app_rejects_raises_at_boot_with_line_and_column
    File.write(@ios, "{\n  \"rules\": [\n    {\"patterns\": [\"/b(c\"], \"properties\": {}}\n  ]\n}\n")
    error = assert_raises(Pathconfig::ConfigError) do
      Pathconfig::Rack::Server.new("/configurations/ios_v1.json" => { file: @ios, apps: %w[hotwire-ios] })
    end
    assert_equal [Pathconfig::ErrorCode::E_REGEX, 3, 19], [error.code, error.line, error.column]
    assert_match(/\A#{Regexp.escape(@ios)}:3:19: rule 0, pattern 0: invalid regular expression/, error.message)
    unknown = assert_raises(Pathconfig::ConfigError) do
      Pathconfig::Rack::Server.new("/c.json" => { json: "{}", apps: %w[hotwire-ios@0.1] })
    end
    assert_equal Pathconfig::ErrorCode::E_OPTIONS, unknown.code
  end
end
