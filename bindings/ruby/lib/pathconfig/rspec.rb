# frozen_string_literal: true

require "pathconfig/check"

module Pathconfig
  # RSpec matchers that check a path configuration as given apps read it.
  #
  #   RSpec.describe "the path configuration", type: :request do
  #     include Pathconfig::RSpec
  #
  #     it "opens new posts as a modal on both apps" do
  #       get "/configurations/ios_v1.json"
  #       expect(response.body).to resolve("/posts/new").to(context: "modal").on("hotwire-ios", "hotwire-android@1.2.2")
  #       expect(response.body).to resolve("/posts/new").to(include(context: "modal", title: nil))
  #       expect("config/ios_v1.json").to be_a_valid_path_configuration.on("hotwire-ios")
  #     end
  #   end
  #
  # The actual value is a PathConfiguration, a file path, JSON text or a Hash.
  # resolve(url, method: nil).to(...) takes a Hash of expected values
  # (compared with their JSON types, typed keys as the app reads them, as
  # Pathconfig::Minitest does) or any RSpec matcher, which receives a Hash
  # with Symbol keys: the raw properties, with every typed key as the app
  # reads it. .on(*apps) names the apps (profiles, "APP@VERSION"). A failure
  # names each app that reads otherwise and the rules that matched.
  module RSpec
    def resolve(url, method: nil)
      ResolveMatcher.new(url, method)
    end

    def be_a_valid_path_configuration(warnings: false)
      ValidMatcher.new(warnings)
    end

    # resolve(url).to(expected).on(*apps)
    class ResolveMatcher
      def initialize(url, method)
        @url = url
        @method = method
        @apps = nil
        @expected = nil
      end

      def to(expected = nil, **keywords)
        @expected = expected.nil? ? keywords : expected
        self
      end

      def on(*apps)
        @apps = apps.flatten
        self
      end

      def matches?(source)
        @outcomes = outcomes(source)
        @outcomes.values.none?
      end

      # Negated: no app reads the expected properties.
      def does_not_match?(source)
        @outcomes = outcomes(source)
        @outcomes.values.all?
      end

      def failure_message
        @outcomes.values.compact.join("\n\n")
      end

      def failure_message_when_negated
        "expected #{@url} not to resolve to #{expected_text}, but " \
          "#{@outcomes.select { |_, f| f.nil? }.keys.join(', ')} read it so"
      end

      def description
        "resolve #{@url} to #{expected_text}#{" on #{@apps.join(', ')}" if @apps}"
      end

      def diffable?
        false
      end

      private

      def expected_text
        @expected.respond_to?(:description) ? @expected.description : @expected.inspect
      end

      # { app => failure text, or nil where the app reads what is expected }
      def outcomes(source)
        raise ArgumentError, "resolve(#{@url.inspect}) needs .to(...): the expected properties" if @expected.nil?

        Check.configurations(source, @apps).to_h do |app, config|
          if @expected.is_a?(Hash)
            [app, Check.failures(config, @url, @expected, method: @method).first]
          else
            props = config.properties(@url, method: @method)
            next [app, nil] if @expected.matches?(Check.view(props))

            why = @expected.respond_to?(:failure_message) ? @expected.failure_message : "expected #{expected_text}"
            [app, Check.report(config, app, @url, @method, why.to_s.lines.map(&:chomp))]
          end
        end
      end
    end

    # be_a_valid_path_configuration.on(*apps)
    class ValidMatcher
      def initialize(warnings)
        @warnings = warnings
        @apps = nil
      end

      def on(*apps)
        @apps = apps.flatten
        self
      end

      def matches?(source)
        @problems = Check.problems(source, apps: @apps, warnings: @warnings)
        @problems.empty?
      end

      def failure_message
        "expected a valid path configuration:\n#{@problems.join("\n")}"
      end

      def failure_message_when_negated
        "expected the path configuration to be rejected, but #{@apps ? @apps.join(', ') : 'the default app'} loaded it"
      end

      def description
        "be a valid path configuration#{" on #{@apps.join(', ')}" if @apps}"
      end
    end
  end
end
