# frozen_string_literal: true

require "pathconfig/check"

module Pathconfig
  # Minitest assertions that check a path configuration as given apps read it.
  #
  #   class PathConfigurationTest < ActionDispatch::IntegrationTest
  #     include Pathconfig::Minitest
  #
  #     test "new posts open as a modal on both apps" do
  #       get "/configurations/ios_v1.json"
  #       assert_path_properties "/posts/new", { context: "modal", pull_to_refresh_enabled: false },
  #                              apps: %w[hotwire-ios hotwire-android@1.2.2], config: response.body
  #     end
  #   end
  #
  # The configuration (config:) is a PathConfiguration, a file path, JSON text
  # or a Hash; without config: the test's own `path_configuration` method
  # gives it. Apps are profiles, with a release when you need one
  # ("hotwire-ios@1.2.2"). Expected values compare with their JSON types
  # (1 is not "1", false is not "false"); typed keys (context, presentation,
  # pull_to_refresh_enabled, ...) as the app reads them, defaults applied; a
  # Regexp, Range, Class or Proc matches with ===. A failure names each app
  # that reads otherwise, what it read, and the rules that matched.
  module Minitest
    def assert_path_properties(url, expected, apps: nil, config: nil, method: nil, msg: nil)
      failures = Check.failures(path_configuration_source(config), url, expected, apps: apps, method: method)
      assert failures.empty?, message(msg) { failures.join("\n\n") }
    end

    # Every app loads the configuration without an error (and, with
    # warnings: true, without a warning); the failure gives the library's
    # message with line and column.
    def assert_valid_path_configuration(config = nil, apps: nil, warnings: false, msg: nil)
      problems = Check.problems(path_configuration_source(config), apps: apps, warnings: warnings)
      assert problems.empty?, message(msg) { problems.join("\n") }
    end

    private

    def path_configuration_source(config)
      return config unless config.nil?
      return path_configuration if respond_to?(:path_configuration, true)

      raise ArgumentError, "no configuration: pass config: (a PathConfiguration, a file path or JSON text) " \
                           "or define path_configuration in the test"
    end
  end
end
