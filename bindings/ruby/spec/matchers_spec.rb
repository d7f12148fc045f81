# frozen_string_literal: true

require_relative "spec_helper"

RSpec.describe "Pathconfig::RSpec matchers" do
  let(:config) do
    JSON.generate(
      "rules" => [
        { "patterns" => [".*"], "properties" => { "context" => "default", "pull_to_refresh_enabled" => true } },
        { "patterns" => ["/new$"], "properties" => { "context" => "modal", "pull_to_refresh_enabled" => false, "max" => 3 } },
        { "patterns" => ["/android_only$"], "properties" => { "presentation" => "PUSH" } }
      ]
    )
  end
  let(:apps) { %w[hotwire-ios hotwire-android] }

  def failure_of
    yield
    raise "the expectation passed"
  rescue RSpec::Expectations::ExpectationNotMetError => e
    e.message
  end

  it "checks expected values with their JSON types on every app" do
    expect(config).to resolve("/posts/new").to(context: "modal", pull_to_refresh_enabled: false, max: 3).on(apps)
    expect(config).to resolve("/posts/new").on("hotwire-ios@1.2.2").to("presentation" => "default")
    expect(config).not_to resolve("/posts/1").to(context: "modal").on(apps)
  end

  it "takes any RSpec matcher, given what the app reads with Symbol keys" do
    expect(config).to resolve("/posts/new").to(include(context: "modal", max: 3, modal_style: "large")).on("hotwire-ios")
    expect(config).to resolve("/x/android_only").to(include(presentation: "push")).on("hotwire-android", "turbo-android")
    expect(EXAMPLE).to resolve("/messages/new").to(a_hash_including(context: "modal"))
  end

  it "fails naming the app, what it read and the matching rules" do
    message = failure_of { expect(config).to resolve("/posts/new").to(max: 3.0).on(apps) }
    expect(message).to include("/posts/new as hotwire-ios reads it:", "/posts/new as hotwire-android reads it:",
                               "max: expected 3.0 (number), got 3 (integer)", 'rule 1: pattern "/new$"')
    message = failure_of { expect(config).to resolve("/x/android_only").to(include(presentation: "pop")).on(apps) }
    expect(message).to include("as hotwire-ios reads it", 'rule 2: pattern "/android_only$"')
    negated = failure_of { expect(config).not_to resolve("/posts/new").to(context: "modal").on(apps) }
    expect(negated).to include("hotwire-ios, hotwire-android read it so")
  end

  it "checks that every app loads a configuration" do
    expect(config).to be_a_valid_path_configuration.on(apps)
    broken = File.join(ROOT, "examples", "broken.json")
    expect(broken).not_to be_a_valid_path_configuration.on("turbo-ios")
    message = failure_of { expect(broken).to be_a_valid_path_configuration.on("turbo-ios") }
    expect(message).to include("turbo-ios: #{broken}:4:29:")
  end

  it "lets an unknown app speak through the library's error" do
    expect { expect(config).to resolve("/a").to(context: "default").on("hotwire-ios@0.0.1") }
      .to raise_error(Pathconfig::ConfigError, /0\.0\.1/)
  end
end
