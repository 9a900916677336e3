/// What is said about speed limits: "Speed limit 50" before a lower limit begins, and "Speed
/// limit 50, slow down" once when the car keeps over it. The number is in the units the driver
/// reads on the signs: km/h, or mph (a limit mapped as "30 mph" is stored as 48 km/h and said as
/// 30, rounded to the 5 mph that signs use).
extension Instructions {
    public func speedLimitPrompt(_ limitKmh: Double) -> String {
        locale.phrase("prompt.speed_limit", ["speed": spokenLimit(limitKmh)]).capitalizedFirst + locale.fullStop
    }

    public func speedingWarning(_ limitKmh: Double) -> String {
        locale.phrase("prompt.speeding", ["speed": spokenLimit(limitKmh)]).capitalizedFirst + locale.fullStop
    }

    /// The limit as a sign shows it, in the driver's units.
    public func signedLimit(_ limitKmh: Double) -> Int {
        units == .metric ? Int(limitKmh.rounded()) : Int((limitKmh / 1.609_344 / 5).rounded()) * 5
    }

    private func spokenLimit(_ limitKmh: Double) -> String { locale.number(Double(signedLimit(limitKmh))) }
}
