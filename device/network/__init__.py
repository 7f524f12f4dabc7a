"""network"""
