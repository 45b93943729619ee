import Foundation

/// The physics of the simulated chamber: temperature and humidity over time.
///
/// The air temperature approaches the setpoint exponentially (time constant
/// ``timeConstant``, so a 1 °C step is 63 % done after 2 minutes); relative humidity
/// wanders around ``restingHumidity``, pulled back towards it. Each reading adds sensor
/// noise (±0.03 °C, ±0.2 %RH). All randomness comes from the caller's generator, so
/// equal seeds and equal instants give equal readings.
struct ClimateModel {
    /// Seconds for 63 % of a setpoint change to show in the temperature.
    static let timeConstant = 120.0
    /// The humidity (%RH) the chamber settles to.
    static let restingHumidity = 41.0

    /// The target temperature, °C.
    var setpoint = 22.0
    /// The true air temperature, °C (readings add noise to it).
    private(set) var temperature = 21.5
    /// The true relative humidity, %.
    private(set) var humidity = restingHumidity
    private var lastUpdate: ContinuousClock.Instant?

    /// One noisy measurement, rounded as the device reports it.
    struct Reading: Equatable {
        /// °C, rounded to 0.01.
        let temperature: Double
        /// %RH, rounded to 0.1.
        let humidity: Double
    }

    /// Advances the model to `now` and measures.
    mutating func read(at now: ContinuousClock.Instant, using random: inout SeededRandomGenerator)
        -> Reading
    {
        advance(to: now, using: &random)
        let measuredTemperature = temperature + Double.random(in: -0.03...0.03, using: &random)
        let measuredHumidity = humidity + Double.random(in: -0.2...0.2, using: &random)
        return Reading(
            temperature: (measuredTemperature * 100).rounded() / 100,
            humidity: min(100, max(0, (measuredHumidity * 10).rounded() / 10)))
    }

    private mutating func advance(
        to now: ContinuousClock.Instant, using random: inout SeededRandomGenerator
    ) {
        defer { lastUpdate = now }
        guard let lastUpdate, now > lastUpdate else { return }
        let (seconds, attoseconds) = (now - lastUpdate).components
        let elapsed = Double(seconds) + Double(attoseconds) / 1e18
        let approach = 1 - exp(-elapsed / Self.timeConstant)
        temperature += (setpoint - temperature) * approach
        let wander = Double.random(in: -0.5...0.5, using: &random) * min(1, elapsed)
        humidity += (Self.restingHumidity - humidity) * approach + wander
    }
}
